package dev.weft.channels;

/** Sends text to a chat of one channel (Telegram, WhatsApp). Implementations are thread-safe. */
public interface ChannelSender {
    /** The channel's name, as chats are stored under it: {@code telegram}, {@code whatsapp}. */
    String channel();

    /**
     * Sends {@code text} to chat {@code chatId}.
     *
     * @throws dev.weft.core.WeftException {@code E_CHANNEL_UNAVAILABLE} when the channel's API refuses or
     *     cannot be reached
     */
    void send(String chatId, String text);

    /** Told that something was put in this channel's outbox, to be sent soon (nothing by default). */
    default void outboxChanged() {}
}
