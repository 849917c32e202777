/**
 * Steps run by worker processes through Redis Streams: {@link dev.weft.redis.RedisSteps} hands a
 * runner's steps to a stream and delivers their outcomes back, {@link dev.weft.redis.Worker} reads the
 * stream through a consumer group and runs them.
 */
@NullMarked
package dev.weft.redis;

import org.jspecify.annotations.NullMarked;
