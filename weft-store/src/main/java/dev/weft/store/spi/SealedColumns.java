package dev.weft.store.spi;

import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * The columns of a module's tables that hold secrets sealed with {@link dev.weft.store.Secrets}, so
 * that a rotation of the deployment's key seals them all again. A module lists its own in {@code
 * META-INF/services/dev.weft.store.spi.SealedColumns}; the store never names an assistant's tables.
 */
public interface SealedColumns {
    /** One column of sealed secrets: NULL where a row has none. */
    record SealedColumn(String table, String column) {
        public SealedColumn {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(column, "column");
            if (!table.matches("[a-z][a-z0-9_]*") || !column.matches("[a-z][a-z0-9_]*")) {
                throw new IllegalArgumentException(
                        "a sealed column is named in lower-case letters, digits and '_'; was " + table + "." + column);
            }
        }

        @Override
        public String toString() {
            return table + "." + column;
        }
    }

    /** The module's sealed columns. */
    List<SealedColumn> sealedColumns();

    /** Every module's sealed columns on {@code loader}'s class path. */
    static List<SealedColumn> all(ClassLoader loader) {
        return ServiceLoader.load(SealedColumns.class, loader).stream()
                .flatMap(provider -> provider.get().sealedColumns().stream())
                .distinct()
                .toList();
    }
}
