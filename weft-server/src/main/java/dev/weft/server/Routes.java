package dev.weft.server;

import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import java.util.ArrayList;
import java.util.List;

/** Registers the server's routes on Helidon's routing and keeps their list, which the OpenAPI description must match. */
final class Routes {
    private final HttpRouting.Builder routing;
    private final List<String> registered = new ArrayList<>();

    Routes(HttpRouting.Builder routing) {
        this.routing = routing;
    }

    void get(String path, Handler handler) {
        routing.get(path, handler);
        registered.add("GET " + path);
    }

    void post(String path, Handler handler) {
        routing.post(path, handler);
        registered.add("POST " + path);
    }

    void delete(String path, Handler handler) {
        routing.delete(path, handler);
        registered.add("DELETE " + path);
    }

    /** Every route as {@code "METHOD /path/{param}"}, in the order registered. */
    List<String> registered() {
        return List.copyOf(registered);
    }
}
