package dev.weft.store;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Secrets an application keeps in its tables (mail and calendar passwords and tokens, webhook secrets), encrypted
 * at rest: AES-256-GCM under a key kept in a file outside the database ({@code $WEFT_HOME/mail.key},
 * made on first use, readable by its owner only). A stolen database without the key file holds no
 * secret. Thread-safe.
 */
public final class Secrets {
    private static final int IV_BYTES = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AtomicReference<Path> keyFile;
    private final ErrorCode code;
    private final String remedy;

    private Secrets(AtomicReference<Path> keyFile, ErrorCode code, String remedy) {
        this.keyFile = keyFile;
        this.code = code;
        this.remedy = remedy;
    }

    /**
     * Secrets under the key in {@code keyFile}; a secret that cannot be read fails with {@code code}
     * and a message ending with {@code remedy} (what to do: "add the account again with …").
     */
    public static Secrets inFile(Path keyFile, ErrorCode code, String remedy) {
        return new Secrets(
                new AtomicReference<>(java.util.Objects.requireNonNull(keyFile, "keyFile")),
                java.util.Objects.requireNonNull(code, "code"),
                java.util.Objects.requireNonNull(remedy, "remedy"));
    }

    /**
     * The same secrets — the same key file, now and after {@link #useKeyFile} — failing with {@code
     * code} and {@code remedy} instead: one key for a user's mail and calendar, each error naming what
     * to do about its own secret.
     */
    public Secrets as(ErrorCode code, String remedy) {
        return new Secrets(
                keyFile,
                java.util.Objects.requireNonNull(code, "code"),
                java.util.Objects.requireNonNull(remedy, "remedy"));
    }

    /** {@code $WEFT_HOME/mail.key}, else {@code ~/.weft/mail.key}. */
    public static Path defaultKeyFile() {
        String home = System.getenv("WEFT_HOME");
        Path base = home == null || home.isBlank() ? Path.of(System.getProperty("user.home"), ".weft") : Path.of(home);
        return base.resolve("mail.key");
    }

    /** Keeps the key in {@code file} from now on (a process whose {@code WEFT_HOME} is its own). */
    public void useKeyFile(Path file) {
        keyFile.set(file);
    }

    public Path keyFile() {
        return keyFile.get();
    }

    /** {@code secret} sealed under the key (made if there is none yet), as text to store. */
    public String encrypt(String secret) {
        try {
            byte[] iv = new byte[IV_BYTES];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key(true), new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[iv.length + sealed.length];
            System.arraycopy(iv, 0, out, 0, iv.length);
            System.arraycopy(sealed, 0, out, iv.length, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is in every JVM", e);
        }
    }

    /**
     * A secret {@link #encrypt} sealed.
     *
     * @throws WeftException with this instance's code when the key is missing or is not the one it was sealed with
     */
    public String decrypt(String stored) {
        try {
            byte[] in = Base64.getDecoder().decode(stored);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key(false), new GCMParameterSpec(128, in, 0, IV_BYTES));
            return new String(cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new WeftException(
                    code,
                    "the secret cannot be read with the key in " + keyFile() + " (was the key file replaced?); "
                            + remedy);
        }
    }

    private SecretKey key(boolean create) {
        Path file = keyFile();
        try {
            if (!Files.exists(file)) {
                if (!create) {
                    throw new WeftException(code, "the key " + file + " is missing; " + remedy);
                }
                make(file);
            }
            byte[] bytes = Base64.getDecoder()
                    .decode(Files.readString(file, StandardCharsets.US_ASCII).trim());
            return new SecretKeySpec(bytes, "AES");
        } catch (IOException e) {
            throw new WeftException(code, "cannot read the key " + file + ": " + e);
        }
    }

    private static void make(Path file) throws IOException {
        try {
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(256, RANDOM);
            String text =
                    Base64.getEncoder().encodeToString(generator.generateKey().getEncoded()) + "\n";
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            } catch (FileAlreadyExistsException raced) {
                return;
            }
            Files.writeString(file, text, StandardCharsets.US_ASCII);
            if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(file, Set.copyOf(PosixFilePermissions.fromString("rw-------")));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is in every JVM", e);
        }
    }
}
