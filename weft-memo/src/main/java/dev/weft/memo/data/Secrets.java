package dev.weft.memo.data;

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
 * Users' passwords and tokens (their mail account's and their calendar connection's) encrypted at rest:
 * AES-256-GCM under a key kept in a file outside the database ({@code $WEFT_HOME/mail.key}, made on
 * first use, readable by its owner only; the name is kept from when it held mail secrets only). A
 * stolen database without the key file holds no secret. Thread-safe.
 */
public final class Secrets {
    /**
     * Whose secret it is, for the error when it cannot be read: the code to report and the command
     * that keeps it again.
     */
    record Owner(ErrorCode code, String what, String again) {
        static final Owner MAIL = new Owner(ErrorCode.E_MAIL_UNAVAILABLE, "mail", "'weft memo mail add'");
        static final Owner CALENDAR =
                new Owner(ErrorCode.E_CALENDAR_UNAVAILABLE, "calendar", "'weft memo calendar connect'");
    }

    private static final int IV_BYTES = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AtomicReference<Path> keyFile;

    Secrets(Path keyFile) {
        this.keyFile = new AtomicReference<>(keyFile);
    }

    /** {@code $WEFT_HOME/mail.key}, else {@code ~/.weft/mail.key}. */
    static Path defaultKeyFile() {
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

    String encrypt(String secret, Owner owner) {
        try {
            byte[] iv = new byte[IV_BYTES];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key(true, owner), new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[iv.length + sealed.length];
            System.arraycopy(iv, 0, out, 0, iv.length);
            System.arraycopy(sealed, 0, out, iv.length, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is in every JVM", e);
        }
    }

    String decrypt(String stored, Owner owner) {
        try {
            byte[] in = Base64.getDecoder().decode(stored);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key(false, owner), new GCMParameterSpec(128, in, 0, IV_BYTES));
            return new String(cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new WeftException(
                    owner.code(),
                    "the " + owner.what() + " secret cannot be read with the key in " + keyFile()
                            + " (was the key file replaced?); keep it again with " + owner.again());
        }
    }

    private SecretKey key(boolean create, Owner owner) {
        Path file = keyFile();
        try {
            if (!Files.exists(file)) {
                if (!create) {
                    throw new WeftException(
                            owner.code(),
                            "the key " + file + " of the " + owner.what() + " secret is missing; keep it again with "
                                    + owner.again());
                }
                make(file);
            }
            byte[] bytes = Base64.getDecoder()
                    .decode(Files.readString(file, StandardCharsets.US_ASCII).trim());
            return new SecretKeySpec(bytes, "AES");
        } catch (IOException e) {
            throw new WeftException(owner.code(), "cannot read the secrets' key " + file + ": " + e);
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
