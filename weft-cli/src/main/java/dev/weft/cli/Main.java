package dev.weft.cli;

/** Entry point of the {@code weft} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(WeftCommand.commandLine().execute(args));
    }
}
