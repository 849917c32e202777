package dev.weft.llm;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.llm.internal.ProviderErrors;
import dev.weft.llm.internal.ProviderHttpClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns texts into vectors whose cosine similarity says how close their meanings are: the offline
 * model (all-MiniLM-L6-v2, quantized, run in this process on ONNX Runtime; no network, English-trained)
 * by default, or a provider's embedding model. Vectors are returned at unit length, so a dot product is
 * their cosine. Thread-safe.
 */
public final class Embedder {
    /** The environment variable that chooses the embedding model: {@code offline} or {@code openai:<model>}. */
    public static final String VARIABLE = "WEFT_EMBEDDING_MODEL";

    /** The name the offline model's vectors are stored under. */
    public static final String OFFLINE_NAME = "offline:all-minilm-l6-v2-q";

    private static final class Offline {
        // Loaded on first use: the ONNX session takes a few hundred milliseconds to open.
        static final Embedder INSTANCE =
                new Embedder(OFFLINE_NAME, Provider.OFFLINE, new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run));
    }

    private final String name;
    private final Provider provider;
    private final EmbeddingModel model;

    private Embedder(String name, Provider provider, EmbeddingModel model) {
        this.name = name;
        this.provider = provider;
        this.model = model;
    }

    /** The offline model, shared by the whole process. */
    public static Embedder offline() {
        return Offline.INSTANCE;
    }

    /**
     * The model {@code config} names: an OpenAI (or OpenAI-compatible) embedding model at its base URL
     * with its key, or the offline one.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a provider that has no embedding models (Anthropic)
     */
    public static Embedder create(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return switch (config.provider()) {
            case OFFLINE -> offline();
            case OPENAI ->
                new Embedder(
                        "openai:" + config.model(),
                        Provider.OPENAI,
                        OpenAiEmbeddingModel.builder()
                                .httpClientBuilder(ProviderHttpClient.builder())
                                .baseUrl(config.baseUrl().orElse(null))
                                .apiKey(config.apiKey().orElse(null))
                                .modelName(config.model())
                                .timeout(config.timeout())
                                .maxRetries(1)
                                .build());
            case ANTHROPIC ->
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "Anthropic has no embedding models; set " + VARIABLE
                                + " to offline or to an OpenAI-compatible one (openai:text-embedding-3-small)");
        };
    }

    /**
     * The model {@code WEFT_EMBEDDING_MODEL} in {@code environment} names ({@code openai:<model>}, with
     * the base URL and key the model settings give for OpenAI), else the offline one.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a malformed or unsupported setting
     * @throws ModelUnavailableException when the provider needs a key and none is set
     */
    public static Embedder fromEnvironment(Map<String, String> environment) {
        String chosen = environment.getOrDefault(VARIABLE, "").trim();
        if (chosen.isEmpty() || chosen.equals("offline") || chosen.startsWith("offline:")) {
            return offline();
        }
        return create(ModelConfig.resolve(chosen, ModelSettings.none("flags"), environment));
    }

    /** The model's name as its vectors are stored under it: vectors of two models are never compared. */
    public String name() {
        return name;
    }

    /** The vector of {@code text}. */
    public float[] embed(String text) {
        return embedAll(List.of(text)).get(0);
    }

    /**
     * The vectors of {@code texts}, in their order, each of unit length.
     *
     * @throws ModelUnavailableException or {@link ModelTransientException} when a provider fails
     */
    public List<float[]> embedAll(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = new ArrayList<>(texts.size());
        for (String text : texts) {
            // A blank segment is refused by the models; a space means "nothing" to all of them.
            segments.add(TextSegment.from(text.isBlank() ? " " : text));
        }
        List<Embedding> embeddings;
        try {
            embeddings = model.embedAll(segments).content();
        } catch (RuntimeException e) {
            throw ProviderErrors.classify(e, provider, name, Instant.now());
        }
        List<float[]> vectors = new ArrayList<>(embeddings.size());
        for (Embedding embedding : embeddings) {
            vectors.add(unit(embedding.vector()));
        }
        return vectors;
    }

    /** The dot product of two unit vectors: their cosine similarity, from -1 to 1. */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("vectors of " + a.length + " and " + b.length + " dimensions");
        }
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }

    private static float[] unit(float[] vector) {
        double norm = 0;
        for (float v : vector) {
            norm += v * v;
        }
        if (norm == 0) {
            return vector;
        }
        float scale = (float) (1 / Math.sqrt(norm));
        float[] out = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            out[i] = vector[i] * scale;
        }
        return out;
    }

    @Override
    public String toString() {
        return "Embedder[" + name + "]";
    }
}
