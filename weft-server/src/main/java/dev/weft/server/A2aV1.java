package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.a2a.spec.InvalidParamsError;
import io.a2a.util.Utils;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The A2A 1.0 wire shapes (ProtoJSON: {@code "role": "ROLE_USER"}, {@code "state":
 * "TASK_STATE_INPUT_REQUIRED"}, parts told apart by their field rather than a {@code kind}, results
 * wrapped as {@code {"task": …}} or {@code {"statusUpdate": …}}) translated to and from the 0.3 shapes
 * the server's A2A Java SDK types speak, so one implementation serves both versions. Written by hand
 * because the SDK's 1.0 spec (io.github.a2asdk 1.0.0, still an alpha) reuses the 0.3 artifact's
 * coordinates and packages, and the two cannot sit on one classpath. Stateless.
 */
final class A2aV1 {
    /** The JSON-RPC methods of A2A 1.0, each with the 0.3 method it renames. */
    static final Map<String, String> METHODS = Map.of(
            "SendMessage", "message/send",
            "SendStreamingMessage", "message/stream",
            "GetTask", "tasks/get",
            "CancelTask", "tasks/cancel");

    /** The 1.0 protocol version, as a card's interface and the {@code A2A-Version} header name it. */
    static final String VERSION = "1.0";

    private A2aV1() {}

    /**
     * The agent card in 1.0's shape, made from the card served to 0.3 clients ({@code legacy}, which
     * carries 1.0's {@code supportedInterfaces} and {@code securityRequirements} already): without 0.3's
     * {@code url}, {@code protocolVersion}, {@code preferredTransport}, {@code additionalInterfaces} and
     * {@code security}; each security scheme as the protocol's oneof ({@code {"httpAuthSecurityScheme":
     * {"scheme": "Bearer", …}}} for 0.3's {@code {"type": "http", "scheme": "bearer"}}).
     */
    static ObjectNode card(JsonNode legacy) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        copy(legacy, out, "name");
        copy(legacy, out, "description");
        copy(legacy, out, "supportedInterfaces");
        copy(legacy, out, "provider");
        copy(legacy, out, "version");
        copy(legacy, out, "documentationUrl");
        ObjectNode capabilities = out.putObject("capabilities");
        copy(legacy.path("capabilities"), capabilities, "streaming");
        copy(legacy.path("capabilities"), capabilities, "pushNotifications");
        copy(legacy.path("capabilities"), capabilities, "extensions");
        ObjectNode schemes = out.putObject("securitySchemes");
        legacy.path("securitySchemes")
                .properties()
                .forEach(scheme -> schemes.set(scheme.getKey(), securityScheme(scheme.getValue())));
        copy(legacy, out, "securityRequirements");
        copy(legacy, out, "defaultInputModes");
        copy(legacy, out, "defaultOutputModes");
        ArrayNode skills = out.putArray("skills");
        for (JsonNode skill : legacy.path("skills")) {
            ObjectNode kept = skills.addObject();
            for (String field :
                    new String[] {"id", "name", "description", "tags", "examples", "inputModes", "outputModes"}) {
                copy(skill, kept, field);
            }
        }
        copy(legacy, out, "iconUrl");
        return out;
    }

    /** A 0.3 security scheme ({@code "type"} tells its kind) as 1.0's oneof, its field named for the kind. */
    private static ObjectNode securityScheme(JsonNode legacy) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        ObjectNode scheme;
        switch (legacy.path("type").asText()) {
            case "http" -> {
                scheme = out.putObject("httpAuthSecurityScheme");
                // RFC 9110 names the scheme "Bearer"; 0.3's JSON Schema examples wrote it lower-case.
                String name = legacy.path("scheme").asText();
                scheme.put("scheme", name.equalsIgnoreCase("bearer") ? "Bearer" : name);
                copy(legacy, scheme, "bearerFormat");
            }
            case "apiKey" -> {
                scheme = out.putObject("apiKeySecurityScheme");
                copy(legacy, scheme, "name");
                if (legacy.has("in")) {
                    scheme.set("location", legacy.get("in"));
                }
            }
            case "openIdConnect" -> {
                scheme = out.putObject("openIdConnectSecurityScheme");
                copy(legacy, scheme, "openIdConnectUrl");
            }
            case "mutualTLS" -> scheme = out.putObject("mtlsSecurityScheme");
            default -> throw new IllegalArgumentException("no 1.0 form for the security scheme " + legacy);
        }
        copy(legacy, scheme, "description");
        return out;
    }

    /** A 1.0 {@code SendMessage}'s params as 0.3's {@code MessageSendParams}. */
    static ObjectNode sendParams(JsonNode params) {
        if (!params.isObject()) {
            throw new InvalidParamsError("\"params\" must be an object");
        }
        ObjectNode legacy = Utils.OBJECT_MAPPER.createObjectNode();
        JsonNode message = params.path("message");
        if (!message.isObject()) {
            throw new InvalidParamsError("\"params.message\" is required");
        }
        legacy.set("message", messageIn(message));
        JsonNode configuration = params.path("configuration");
        if (configuration.isObject()) {
            ObjectNode kept = legacy.putObject("configuration");
            copy(configuration, kept, "acceptedOutputModes");
            copy(configuration, kept, "historyLength");
        }
        copy(params, legacy, "metadata");
        return legacy;
    }

    private static ObjectNode messageIn(JsonNode message) {
        ObjectNode legacy = Utils.OBJECT_MAPPER.createObjectNode();
        legacy.put("kind", "message");
        copy(message, legacy, "messageId");
        copy(message, legacy, "contextId");
        copy(message, legacy, "taskId");
        legacy.put("role", role(message.path("role").asText()));
        ArrayNode parts = legacy.putArray("parts");
        for (JsonNode part : message.path("parts")) {
            parts.add(partIn(part));
        }
        copy(message, legacy, "metadata");
        copy(message, legacy, "extensions");
        copy(message, legacy, "referenceTaskIds");
        return legacy;
    }

    private static String role(String role) {
        return switch (role) {
            case "ROLE_USER", "user" -> "user";
            case "ROLE_AGENT", "agent" -> "agent";
            default ->
                throw new InvalidParamsError("\"message.role\" must be ROLE_USER or ROLE_AGENT, was '" + role + "'");
        };
    }

    private static ObjectNode partIn(JsonNode part) {
        ObjectNode legacy = Utils.OBJECT_MAPPER.createObjectNode();
        if (part.has("text")) {
            legacy.put("kind", "text");
            legacy.set("text", part.get("text"));
        } else if (part.has("data")) {
            legacy.put("kind", "data");
            legacy.set("data", part.get("data"));
        } else if (part.has("url") || part.has("raw")) {
            legacy.put("kind", "file");
            ObjectNode file = legacy.putObject("file");
            if (part.has("url")) {
                file.set("uri", part.get("url"));
            } else {
                file.set("bytes", part.get("raw"));
            }
            if (part.has("mediaType")) {
                file.set("mimeType", part.get("mediaType"));
            }
            if (part.has("filename")) {
                file.set("name", part.get("filename"));
            }
        } else {
            throw new InvalidParamsError("a message part needs one of \"text\", \"data\", \"url\" or \"raw\"");
        }
        copy(part, legacy, "metadata");
        return legacy;
    }

    /**
     * A 0.3 result ({@code Task}, {@code Message}, or a stream's status or artifact update) as its 1.0
     * wrapper: {@code {"task": …}}, {@code {"message": …}}, {@code {"statusUpdate": …}}, {@code
     * {"artifactUpdate": …}}.
     */
    static ObjectNode wrapped(JsonNode result) {
        ObjectNode wrapper = Utils.OBJECT_MAPPER.createObjectNode();
        switch (result.path("kind").asText()) {
            case "task" -> wrapper.set("task", task(result));
            case "message" -> wrapper.set("message", messageOut(result));
            case "status-update" -> wrapper.set("statusUpdate", statusUpdate(result));
            case "artifact-update" -> wrapper.set("artifactUpdate", artifactUpdate(result));
            default -> throw new IllegalArgumentException("not an A2A result: " + result);
        }
        return wrapper;
    }

    /** A 0.3 {@code Task} as 1.0's (no {@code kind}; states and roles as ProtoJSON enums). */
    static ObjectNode task(JsonNode task) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        copy(task, out, "id");
        copy(task, out, "contextId");
        out.set("status", status(task.path("status")));
        if (task.path("artifacts").isArray()) {
            ArrayNode artifacts = out.putArray("artifacts");
            task.path("artifacts").forEach(a -> artifacts.add(artifact(a)));
        }
        if (task.path("history").isArray()) {
            ArrayNode history = out.putArray("history");
            task.path("history").forEach(m -> history.add(messageOut(m)));
        }
        copy(task, out, "metadata");
        return out;
    }

    private static ObjectNode status(JsonNode status) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        out.put("state", state(status.path("state").asText()));
        if (status.path("message").isObject()) {
            out.set("message", messageOut(status.path("message")));
        }
        copy(status, out, "timestamp");
        return out;
    }

    /** A 0.3 task state ({@code input-required}) as 1.0's enum ({@code TASK_STATE_INPUT_REQUIRED}). */
    static String state(String legacy) {
        return switch (legacy) {
            case "submitted",
                    "working",
                    "input-required",
                    "completed",
                    "canceled",
                    "failed",
                    "rejected",
                    "auth-required" -> "TASK_STATE_" + legacy.replace('-', '_').toUpperCase(Locale.ROOT);
            default -> "TASK_STATE_UNSPECIFIED";
        };
    }

    private static ObjectNode messageOut(JsonNode message) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        copy(message, out, "messageId");
        copy(message, out, "contextId");
        copy(message, out, "taskId");
        out.put("role", message.path("role").asText().equals("agent") ? "ROLE_AGENT" : "ROLE_USER");
        out.set("parts", partsOut(message.path("parts")));
        copy(message, out, "metadata");
        copy(message, out, "extensions");
        copy(message, out, "referenceTaskIds");
        return out;
    }

    private static ArrayNode partsOut(JsonNode parts) {
        ArrayNode out = Utils.OBJECT_MAPPER.createArrayNode();
        for (JsonNode part : parts) {
            ObjectNode p = out.addObject();
            switch (part.path("kind").asText()) {
                case "text" -> p.set("text", part.path("text"));
                case "data" -> p.set("data", part.path("data"));
                case "file" -> {
                    JsonNode file = part.path("file");
                    Optional.ofNullable(file.get("uri")).ifPresent(u -> p.set("url", u));
                    Optional.ofNullable(file.get("bytes")).ifPresent(b -> p.set("raw", b));
                    Optional.ofNullable(file.get("mimeType")).ifPresent(m -> p.set("mediaType", m));
                    Optional.ofNullable(file.get("name")).ifPresent(n -> p.set("filename", n));
                }
                default -> throw new IllegalArgumentException("not an A2A part: " + part);
            }
            copy(part, p, "metadata");
        }
        return out;
    }

    private static ObjectNode artifact(JsonNode artifact) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        copy(artifact, out, "artifactId");
        copy(artifact, out, "name");
        copy(artifact, out, "description");
        out.set("parts", partsOut(artifact.path("parts")));
        copy(artifact, out, "metadata");
        copy(artifact, out, "extensions");
        return out;
    }

    /** 1.0's status update has no {@code final}: the stream's end says that. */
    private static ObjectNode statusUpdate(JsonNode update) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        copy(update, out, "taskId");
        copy(update, out, "contextId");
        out.set("status", status(update.path("status")));
        copy(update, out, "metadata");
        return out;
    }

    private static ObjectNode artifactUpdate(JsonNode update) {
        ObjectNode out = Utils.OBJECT_MAPPER.createObjectNode();
        copy(update, out, "taskId");
        copy(update, out, "contextId");
        out.set("artifact", artifact(update.path("artifact")));
        copy(update, out, "append");
        copy(update, out, "lastChunk");
        copy(update, out, "metadata");
        return out;
    }

    private static void copy(JsonNode from, ObjectNode to, String field) {
        JsonNode value = from.get(field);
        if (value != null && !value.isNull()) {
            to.set(field, value);
        }
    }
}
