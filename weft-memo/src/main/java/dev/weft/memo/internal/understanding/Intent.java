package dev.weft.memo.internal.understanding;

import java.util.Optional;

/**
 * What one request asks Memo for: a capability and what to do with it, small talk, help, undo, or
 * something Memo does not do ({@link #outOfScope}), by the topic it belongs to so that the reply can
 * say what Memo cannot do.
 */
public enum Intent {
    CALENDAR_QUERY("calendar.query"),
    CALENDAR_CREATE("calendar.create"),
    CALENDAR_UPDATE("calendar.update"),
    CALENDAR_DELETE("calendar.delete"),
    TASK_CREATE("task.create"),
    TASK_QUERY("task.query"),
    TASK_UPDATE("task.update"),
    TASK_DELETE("task.delete"),
    TASK_COMPLETE("task.complete"),
    LIST_CREATE("list.create"),
    LIST_ADD("list.add"),
    LIST_QUERY("list.query"),
    LIST_REMOVE_ITEM("list.remove_item"),
    LIST_DELETE("list.delete"),
    LIST_CHECK("list.check"),
    EMAIL_SEND("email.send"),
    EMAIL_QUERY("email.query"),
    EMAIL_READ("email.read"),
    EMAIL_REPLY("email.reply"),
    EMAIL_FORWARD("email.forward"),
    EMAIL_MANAGE("email.manage"),
    MEMORY_STORE("memory.store"),
    MEMORY_QUERY("memory.query"),
    MEMORY_FORGET("memory.forget"),
    META_HELP("meta.help"),
    SMALL_TALK("chat.small_talk"),
    UNDO("undo"),
    OOS_WEATHER("oos.weather"),
    OOS_MUSIC("oos.music"),
    OOS_SMART_HOME("oos.smart_home"),
    OOS_FOOD("oos.food"),
    OOS_NEWS("oos.news"),
    OOS_TRIVIA("oos.trivia"),
    OOS_TRANSPORT("oos.transport"),
    OOS_SHOPPING("oos.shopping"),
    OOS_MESSAGING("oos.messaging"),
    OOS_CLOCK("oos.clock"),
    OOS_MATH("oos.math"),
    OOS_ENTERTAINMENT("oos.entertainment"),
    OOS_RECOMMENDATION("oos.recommendation"),
    OOS_DEVICE("oos.device"),
    OOS_PAYMENTS("oos.payments");

    private final String label;

    Intent(String label) {
        this.label = label;
    }

    /** The label in templates and in the model: {@code calendar.query}, {@code oos.weather}. */
    public String label() {
        return label;
    }

    /** The intent of a label. */
    public static Optional<Intent> ofLabel(String label) {
        for (Intent intent : values()) {
            if (intent.label().equals(label)) {
                return Optional.of(intent);
            }
        }
        return Optional.empty();
    }

    /** Whether this is something Memo does not do. */
    public boolean outOfScope() {
        return name().startsWith("OOS_");
    }

    /** Whether carrying it out changes the user's data (asked first when Memo is unsure). */
    public boolean writes() {
        return switch (this) {
            case CALENDAR_CREATE,
                    CALENDAR_UPDATE,
                    CALENDAR_DELETE,
                    TASK_CREATE,
                    TASK_UPDATE,
                    TASK_DELETE,
                    TASK_COMPLETE,
                    LIST_CREATE,
                    LIST_ADD,
                    LIST_REMOVE_ITEM,
                    LIST_DELETE,
                    LIST_CHECK,
                    EMAIL_SEND,
                    EMAIL_REPLY,
                    EMAIL_FORWARD,
                    EMAIL_MANAGE,
                    MEMORY_STORE,
                    MEMORY_FORGET,
                    UNDO -> true;
            default -> false;
        };
    }

    /** Whether carrying it out changes or removes what the user already has (not only adds). */
    public boolean destructive() {
        return switch (this) {
            case CALENDAR_UPDATE,
                    CALENDAR_DELETE,
                    TASK_UPDATE,
                    TASK_DELETE,
                    LIST_REMOVE_ITEM,
                    LIST_DELETE,
                    EMAIL_MANAGE,
                    MEMORY_FORGET -> true;
            default -> false;
        };
    }
}
