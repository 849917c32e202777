package dev.weft.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Where the key that encrypts stored secrets comes from: the deployment's key, given to every process
 * of it ({@code WEFT_SECRET_KEY} or {@code WEFT_SECRET_KEY_FILE}), or else a key file of this
 * machine's own, made on first use ({@code $WEFT_HOME/mail.key}). Immutable.
 */
public sealed interface SecretKeySource {
    /** The environment variable that holds the deployment's key, in base64 (32 bytes). */
    String KEY_VARIABLE = "WEFT_SECRET_KEY";

    /** The environment variable that names a file holding the deployment's key, in base64. */
    String KEY_FILE_VARIABLE = "WEFT_SECRET_KEY_FILE";

    /** How many bytes a key has: AES-256. */
    int KEY_BYTES = 32;

    /** What the key is, for a person: "WEFT_SECRET_KEY", "the key file /srv/weft/secret.key". */
    String describe();

    /** The deployment's key, read and checked once: from {@code origin} (a variable or a file). */
    record Given(String origin, SecretKey key) implements SecretKeySource {
        public Given {
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(key, "key");
        }

        @Override
        public String describe() {
            return origin;
        }

        @Override
        public String toString() {
            // Never the key itself: a source ends up in logs.
            return "Given[" + origin + "]";
        }
    }

    /** A key file of this machine's own, made (readable by its owner only) when a secret is first sealed. */
    record HomeFile(Path file) implements SecretKeySource {
        public HomeFile {
            Objects.requireNonNull(file, "file");
        }

        @Override
        public String describe() {
            return "the key file " + file;
        }
    }

    /**
     * The deployment's key when {@code env} gives one ({@code WEFT_SECRET_KEY}, or the file {@code
     * WEFT_SECRET_KEY_FILE} names), else {@code homeFile}.
     *
     * @throws SecretKeyException {@code E_SECRET_KEY} when both are set, the key is not base64 or not 32
     *     bytes, or the file does not exist or cannot be read
     */
    static SecretKeySource fromEnvironment(Function<String, String> env, Path homeFile) {
        Optional<String> value = set(env.apply(KEY_VARIABLE));
        Optional<String> file = set(env.apply(KEY_FILE_VARIABLE));
        if (value.isPresent() && file.isPresent()) {
            throw new SecretKeyException(
                    KEY_VARIABLE + " and " + KEY_FILE_VARIABLE + " are both set; set one of them, to the same key on"
                            + " every server and worker of the deployment");
        }
        if (value.isPresent()) {
            return new Given(KEY_VARIABLE, decode(value.get(), KEY_VARIABLE));
        }
        if (file.isPresent()) {
            Path path = Path.of(file.get());
            String origin = KEY_FILE_VARIABLE + " (" + path + ")";
            if (!Files.isRegularFile(path)) {
                throw new SecretKeyException(
                        KEY_FILE_VARIABLE + " names " + path + ", which does not exist; copy the deployment's key"
                                + " file there (every server and worker needs the same key)");
            }
            try {
                return new Given(origin, decode(Files.readString(path, StandardCharsets.US_ASCII), origin));
            } catch (IOException e) {
                throw new SecretKeyException("cannot read " + origin + ": " + e.getMessage());
            }
        }
        return new HomeFile(homeFile);
    }

    /** {@link #fromEnvironment} over the process's environment. */
    static SecretKeySource fromEnvironment(Path homeFile) {
        return fromEnvironment(System::getenv, homeFile);
    }

    /**
     * The key written as {@code text} (base64 of 32 bytes; surrounding white space is ignored).
     *
     * @throws SecretKeyException naming {@code origin} when it is not base64 or not 32 bytes
     */
    static SecretKey decode(String text, String origin) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new SecretKeyException(
                    origin + " is not base64 (" + e.getMessage() + "); make a key with" + " 'openssl rand -base64 32'");
        }
        if (bytes.length != KEY_BYTES) {
            throw new SecretKeyException(origin + " must be " + KEY_BYTES + " bytes in base64 (an AES-256 key), was "
                    + bytes.length + " bytes; make a key with 'openssl rand -base64 32'");
        }
        return new SecretKeySpec(bytes, "AES");
    }

    private static Optional<String> set(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }
}
