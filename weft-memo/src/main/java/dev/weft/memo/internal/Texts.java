package dev.weft.memo.internal;

/** Picking the words of the user's language. */
final class Texts {
    private Texts() {}

    static String of(String language, String english, String hebrew) {
        return language.equals("he") ? hebrew : english;
    }
}
