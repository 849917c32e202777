package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The concierge's prompts and schemas, read from the class path once. Stateless. */
final class Resources {
    private Resources() {}

    static String text(String name) {
        try (InputStream in = Resources.class.getResourceAsStream("/dev/weft/concierge/" + name)) {
            if (in == null) {
                throw new IllegalStateException("dev/weft/concierge/" + name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String name) {
        return Json.parse(text(name), name);
    }
}
