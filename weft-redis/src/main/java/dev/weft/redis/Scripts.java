package dev.weft.redis;

/**
 * The queue's Lua scripts: each does in one round trip, atomically, what would otherwise leave a
 * window between two commands.
 */
final class Scripts {
    private Scripts() {}

    /**
     * Queues a step unless it is queued or done already (its marker says): a process that recovers a
     * run dispatches its steps again, and must not queue one twice. KEYS: stream, marker. ARGV: run,
     * step, node, kind, graph, work, at, marker lifetime in seconds. Answers {@code new:<id>}, {@code
     * queued:<id>} or {@code done}.
     */
    static final Redis.Script ENQUEUE = Redis.Script.of("""
            local state = redis.call('GET', KEYS[2])
            if state then return state end
            local id = redis.call('XADD', KEYS[1], '*', 'run', ARGV[1], 'step', ARGV[2], 'node', ARGV[3],
                'kind', ARGV[4], 'graph', ARGV[5], 'work', ARGV[6], 'at', ARGV[7])
            redis.call('SET', KEYS[2], 'queued:' .. id, 'EX', tonumber(ARGV[8]))
            return 'new:' .. id
            """);

    /**
     * Ends an entry whose outcome is stored: acknowledged and deleted (so the stream's length is the
     * work not done), its step marked done, and the outcome announced. KEYS: stream, marker. ARGV:
     * group, entry id, marker lifetime, outcomes channel, {@code "<run> <step>"}.
     */
    static final Redis.Script FINISH = Redis.Script.of("""
            redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
            redis.call('XDEL', KEYS[1], ARGV[2])
            redis.call('SET', KEYS[2], 'done', 'EX', tonumber(ARGV[3]))
            redis.call('DEL', KEYS[3])
            redis.call('PUBLISH', ARGV[4], ARGV[5])
            return 1
            """);

    /**
     * Moves an entry to the dead-letter stream, then ends it as {@link #FINISH} does. KEYS: stream,
     * marker, dead-letter stream, lock. ARGV: group, entry id, marker lifetime, outcomes channel, {@code
     * "<run> <step>"}, then the dead entry's fields as name, value pairs.
     */
    static final Redis.Script DEAD_LETTER = Redis.Script.of("""
            local fields = {}
            for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
            redis.call('XADD', KEYS[3], '*', unpack(fields))
            redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
            redis.call('XDEL', KEYS[1], ARGV[2])
            if KEYS[2] ~= '' then
              redis.call('SET', KEYS[2], 'done', 'EX', tonumber(ARGV[3]))
              redis.call('DEL', KEYS[4])
              redis.call('PUBLISH', ARGV[4], ARGV[5])
            end
            return 1
            """);
}
