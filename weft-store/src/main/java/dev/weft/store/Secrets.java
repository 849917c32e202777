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
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Secrets an application keeps in its tables (mail and calendar passwords and tokens, webhook secrets),
 * encrypted at rest: AES-256-GCM under the deployment's key ({@code WEFT_SECRET_KEY} or {@code
 * WEFT_SECRET_KEY_FILE}, the same for every server and worker that shares the database), or, when none
 * is given, under a key file of this machine's own ({@code $WEFT_HOME/mail.key}, made on first use,
 * readable by its owner only). A stolen database without the key holds no secret. A secret sealed
 * under another key is never read as garbage: GCM's tag fails, and so does the call, with {@code
 * E_SECRET_KEY}. Thread-safe.
 */
public final class Secrets {
    private static final int IV_BYTES = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AtomicReference<SecretKeySource> source;
    private final ErrorCode code;
    private final String remedy;

    private Secrets(AtomicReference<SecretKeySource> source, ErrorCode code, String remedy) {
        this.source = source;
        this.code = code;
        this.remedy = remedy;
    }

    /**
     * Secrets under the deployment's key when the process's environment gives one, else under the key
     * in {@code keyFile}; a secret that cannot be read fails with {@code code} and a message ending with
     * {@code remedy} (what to do: "add the account again with …").
     *
     * @throws SecretKeyException when the environment's key is not one ({@link SecretKeySource#fromEnvironment})
     */
    public static Secrets inFile(Path keyFile, ErrorCode code, String remedy) {
        return of(SecretKeySource.fromEnvironment(java.util.Objects.requireNonNull(keyFile, "keyFile")), code, remedy);
    }

    /** Secrets under the key of {@code source}, failing as {@link #inFile} says. */
    public static Secrets of(SecretKeySource source, ErrorCode code, String remedy) {
        return new Secrets(
                new AtomicReference<>(java.util.Objects.requireNonNull(source, "source")),
                java.util.Objects.requireNonNull(code, "code"),
                java.util.Objects.requireNonNull(remedy, "remedy"));
    }

    /**
     * The same secrets — the same key, now and after {@link #useKeyFile} — failing with {@code
     * code} and {@code remedy} instead: one key for a user's mail and calendar, each error naming what
     * to do about its own secret.
     */
    public Secrets as(ErrorCode code, String remedy) {
        return new Secrets(
                source,
                java.util.Objects.requireNonNull(code, "code"),
                java.util.Objects.requireNonNull(remedy, "remedy"));
    }

    /** {@code $WEFT_HOME/mail.key}, else {@code ~/.weft/mail.key}. */
    public static Path defaultKeyFile() {
        String home = System.getenv("WEFT_HOME");
        Path base = home == null || home.isBlank() ? Path.of(System.getProperty("user.home"), ".weft") : Path.of(home);
        return base.resolve("mail.key");
    }

    /**
     * Keeps the key in {@code file} from now on (a process whose {@code WEFT_HOME} is its own), unless
     * the deployment gave its key: that one stays.
     */
    public void useKeyFile(Path file) {
        java.util.Objects.requireNonNull(file, "file");
        source.updateAndGet(
                current -> current instanceof SecretKeySource.Given ? current : new SecretKeySource.HomeFile(file));
    }

    /** Where the key comes from. */
    public SecretKeySource source() {
        return source.get();
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
     * @throws SecretKeyException {@code E_SECRET_KEY} when the secret was sealed under another key (or
     *     this machine's key file is gone)
     * @throws WeftException with this instance's code when the stored text is not a sealed secret
     */
    public String decrypt(String stored) {
        byte[] in;
        try {
            in = Base64.getDecoder().decode(stored);
        } catch (IllegalArgumentException e) {
            throw new WeftException(code, "the stored secret is not one Weft sealed (not base64); " + remedy);
        }
        if (in.length <= IV_BYTES) {
            throw new WeftException(code, "the stored secret is not one Weft sealed (too short); " + remedy);
        }
        SecretKey key = key(false);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, in, 0, IV_BYTES));
            return new String(cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new SecretKeyException("a stored secret was encrypted with another key than "
                    + source().describe() + "; give this process the deployment's key (" + SecretKeySource.KEY_VARIABLE
                    + " or " + SecretKeySource.KEY_FILE_VARIABLE + ", the same on every server and worker), or "
                    + remedy);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is in every JVM", e);
        }
    }

    private SecretKey key(boolean create) {
        return switch (source()) {
            case SecretKeySource.Given given -> given.key();
            case SecretKeySource.HomeFile home -> homeKey(home.file(), create);
        };
    }

    private SecretKey homeKey(Path file, boolean create) {
        try {
            if (!Files.exists(file)) {
                if (!create) {
                    throw new SecretKeyException("the key file " + file + " is missing, so a stored secret cannot be"
                            + " read (was it sealed on another machine? give every process the deployment's key with "
                            + SecretKeySource.KEY_VARIABLE + " or " + SecretKeySource.KEY_FILE_VARIABLE + "); "
                            + remedy);
                }
                make(file);
            }
            return SecretKeySource.decode(Files.readString(file, StandardCharsets.US_ASCII), "the key file " + file);
        } catch (IOException e) {
            throw new SecretKeyException("cannot read the key file " + file + ": " + e);
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
