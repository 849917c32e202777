package dev.weft.memo.internal;

/** Picking the words of the user's language. */
public final class Texts {
    private Texts() {}

    public static String of(String language, String english, String hebrew) {
        return language.equals("he") ? hebrew : english;
    }
}
