/**
 * Messaging channels to the assistants: {@link dev.weft.channels.TelegramChannel} (the Bot API, long
 * polling) and {@link dev.weft.channels.WhatsAppChannel} (the Cloud API's webhook and Graph API) over
 * the channel-free {@link dev.weft.channels.Conversations} (pairing, turns, duplicates) and {@link
 * dev.weft.channels.NoticeDelivery} (reminders to the chat they were set from).
 */
@NullMarked
package dev.weft.channels;

import org.jspecify.annotations.NullMarked;
