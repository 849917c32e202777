package dev.weft.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import dev.weft.store.SecretKeySource;
import dev.weft.store.Secrets;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grant table in SQLite kept by {@link GrantStore}: tokens sealed at rest, refreshed through a fake
 * authorization server at the wire and kept, a revocation marked and told once, rows of other keys untouched.
 */
final class GrantStoreTest {
    private static final GrantStore.Table TABLE =
            new GrantStore.Table("test_grants", List.of("owner_id", "purpose"), true);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-28T08:00:00Z"));
    private final FakeAuthorizationServer fake =
            FakeAuthorizationServer.start("weft-test", Optional.of("s3cret"), "dana@example.com", clock);
    private final OAuthClient client =
            new OAuthClient(OAuthProvider.GOOGLE, fake.issuer(), "weft-test", Optional.of("s3cret"));
    private final List<String> noticed = new ArrayList<>();

    private RunStore runs;
    private AppDatabase db;
    private GrantStore store;

    @BeforeEach
    void open() {
        runs = Stores.open("sqlite:" + dir.resolve("weft.db"));
        db = AppDatabase.of(runs);
        db.write("create the grant table", c -> {
            try (PreparedStatement create = c.prepareStatement("CREATE TABLE test_grants (owner_id TEXT NOT NULL,"
                    + " purpose TEXT NOT NULL, provider TEXT NOT NULL, issuer TEXT NOT NULL, client_id TEXT NOT NULL,"
                    + " client_secret TEXT, account TEXT NOT NULL, scope TEXT NOT NULL, refresh_token TEXT NOT NULL,"
                    + " access_token TEXT NOT NULL, expires_at BIGINT NOT NULL, revoked_at BIGINT, connected_at BIGINT"
                    + " NOT NULL, PRIMARY KEY (owner_id, purpose))")) {
                return create.executeUpdate();
            }
        });
        Secrets secrets = Secrets.of(
                SecretKeySource.fromEnvironment(name -> null, dir.resolve("mail.key")),
                ErrorCode.E_AUTH_REVOKED,
                "sign in again");
        store = GrantStore.create(db, secrets, TABLE, new GrantStore.Revocation() {
            @Override
            public GrantRevokedException explain(GrantStore.Kept kept, String why) {
                return new GrantRevokedException(why + ": connect " + String.join("/", kept.key()) + " again");
            }

            @Override
            public void noticed(GrantStore.Kept kept, Instant at) {
                noticed.add(String.join("/", kept.key()) + "@" + at);
            }
        });
    }

    @AfterEach
    void close() {
        runs.close();
        fake.close();
    }

    private Grant signIn() {
        return AuthorizationServer.discover(client, clock)
                .signInWithBrowser(OAuthProvider.GOOGLE.calendarScopes(), Browser::open, Duration.ofSeconds(30));
    }

    private String column(String column, List<String> key) {
        return db.read("read a column", c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT " + column + " FROM test_grants WHERE owner_id = ? AND purpose = ?")) {
                select.setString(1, key.get(0));
                select.setString(2, key.get(1));
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return row.getString(1);
                }
            }
        });
    }

    @Test
    void keep_sealsTheTokensAndTheClientSecretAndRecordsWhenItWasConnected() {
        Grant grant = signIn();
        List<String> key = List.of("dana", "CALENDAR");

        GrantStore.Kept kept = store.keep(key, client, grant, clock.instant());

        assertThat(kept.key()).isEqualTo(key);
        assertThat(kept.account()).isEqualTo("dana@example.com");
        assertThat(kept.revokedAt()).isEmpty();
        assertThat(column("refresh_token", key)).isNotBlank().doesNotContain(grant.refreshToken());
        assertThat(column("access_token", key)).isNotBlank().doesNotContain(grant.accessToken());
        assertThat(column("client_secret", key)).isNotBlank().doesNotContain("s3cret");
        assertThat(column("connected_at", key))
                .isEqualTo(Long.toString(clock.instant().toEpochMilli()));
        assertThat(store.accessToken(key, clock.instant(), Duration.ofMinutes(1), false))
                .isEqualTo(grant.accessToken());
    }

    @Test
    void accessToken_refreshesAnExpiredTokenAtTheWireAndKeepsItForTheNextUse() {
        fake.accessTokenLifetime(Duration.ofSeconds(120));
        Grant grant = signIn();
        List<String> key = List.of("dana", "MAIL");
        store.keep(key, client, grant, clock.instant());
        clock.advance(Duration.ofMinutes(5));

        String fresh = store.accessToken(key, clock.instant(), Duration.ofMinutes(1), false);

        assertThat(fresh).isNotEqualTo(grant.accessToken());
        assertThat(fake.admits(fresh)).isTrue();
        assertThat(store.accessToken(key, clock.instant(), Duration.ofMinutes(1), false))
                .isEqualTo(fresh);
        assertThat(fake.refreshes()).isEqualTo(1);
        assertThat(store.find(key).orElseThrow().expiresAt())
                .isEqualTo(clock.instant().plusSeconds(120));
    }

    @Test
    void accessToken_withRefreshAsksForANewTokenThoughTheKeptOneHasNotExpired() {
        Grant grant = signIn();
        List<String> key = List.of("dana", "CALENDAR");
        store.keep(key, client, grant, clock.instant());

        String fresh = store.accessToken(key, clock.instant(), Duration.ofMinutes(1), true);

        assertThat(fresh).isNotEqualTo(grant.accessToken());
        assertThat(fake.refreshes()).isEqualTo(1);
    }

    @Test
    void accessToken_ofARevokedGrantMarksItAndTellsTheOwnerOnceAndEveryUseAfterIsAuthRevoked() {
        List<String> dana = List.of("dana", "CALENDAR");
        List<String> omer = List.of("omer", "CALENDAR");
        store.keep(dana, client, signIn(), clock.instant());
        store.keep(omer, client, signIn(), clock.instant());
        fake.revokeEverything();
        clock.advance(Duration.ofHours(2));
        Instant revokedAt = clock.instant();

        for (int use = 0; use < 2; use++) {
            assertThatThrownBy(() -> store.accessToken(dana, clock.instant(), Duration.ofMinutes(1), false))
                    .isInstanceOf(GrantRevokedException.class)
                    .hasMessageEndingWith(": connect dana/CALENDAR again")
                    .extracting(e -> ((WeftException) e).code())
                    .isEqualTo(ErrorCode.E_AUTH_REVOKED);
            clock.advance(Duration.ofMinutes(1));
        }

        assertThat(noticed).containsExactly("dana/CALENDAR@" + revokedAt);
        assertThat(fake.refreshes()).isZero();
        assertThat(store.find(dana).orElseThrow().revokedAt()).contains(revokedAt);
        assertThat(store.find(omer).orElseThrow().revokedAt()).isEmpty();
        assertThat(store.revokeAtProvider(dana, clock)).isFalse();
    }

    @Test
    void keep_replacesARevokedGrantAndRemoveForgetsOnlyItsOwnKey() {
        List<String> dana = List.of("dana", "CALENDAR");
        List<String> danaMail = List.of("dana", "MAIL");
        store.keep(dana, client, signIn(), clock.instant());
        store.keep(danaMail, client, signIn(), clock.instant());

        store.keep(dana, client, signIn(), clock.instant());
        boolean removed = db.write("remove", c -> TABLE.remove(c, dana));

        assertThat(removed).isTrue();
        assertThat(store.find(dana)).isEmpty();
        assertThat(store.find(danaMail)).isPresent();
    }

    @Test
    void revokeAtProvider_revokesTheKeptGrantAtTheWire() {
        Grant grant = signIn();
        List<String> key = List.of("dana", "CALENDAR");
        store.keep(key, client, grant, clock.instant());

        assertThat(store.revokeAtProvider(key, clock)).isTrue();
        assertThat(fake.revoked()).isNotEmpty();
    }

    @Test
    void table_refusesNamesThatAreNotPlainIdentifiersAndKeysOfTheWrongShape() {
        assertThatThrownBy(() -> new GrantStore.Table("grants; DROP TABLE x", List.of("id"), false))
                .hasMessageContaining("plain identifier");
        assertThatThrownBy(() -> new GrantStore.Table("grants", List.of(), false))
                .hasMessageContaining("at least one key column");
        assertThatThrownBy(() -> store.find(List.of("dana")))
                .hasMessageContaining("2 parts [owner_id, purpose], was [dana]");
    }
}
