package dev.weft.time;

import java.util.Locale;

/**
 * The language of a text; {@link #AUTO} picks Hebrew when the text has Hebrew letters, Russian when it
 * has Cyrillic ones, else English.
 */
public enum Language {
    ENGLISH("en"),
    HEBREW("he"),
    RUSSIAN("ru"),
    AUTO("auto");

    private final String code;

    Language(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The language for a code ({@code en}, {@code he}, {@code ru}, {@code auto}), case-insensitive. */
    public static Language fromCode(String code) {
        String c = code.trim().toLowerCase(Locale.ROOT);
        for (Language l : values()) {
            if (l.code.equals(c)) {
                return l;
            }
        }
        if (c.equals("iw") || c.equals("hebrew")) {
            return HEBREW;
        }
        if (c.equals("english")) {
            return ENGLISH;
        }
        if (c.equals("russian")) {
            return RUSSIAN;
        }
        throw new TimeInputException("unknown language '" + code + "', expected en, he, ru or auto");
    }
}
