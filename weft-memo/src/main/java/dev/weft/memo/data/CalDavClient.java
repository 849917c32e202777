package dev.weft.memo.data;

import dev.weft.core.ErrorCode;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The WebDAV and CalDAV requests Memo's calendar sync makes (RFC 4918, 4791, 6578, 6764), on the JDK's
 * HTTP client, the answers read with the JDK's namespace-aware XML parser: PROPFIND, REPORT
 * ({@code sync-collection}, {@code calendar-multiget}), conditional PUT and DELETE, MKCALENDAR, and
 * discovery of a user's calendars from a server's root. A login refused is {@code
 * E_CALENDAR_LOGIN_FAILED}; a server that cannot be reached or fails is {@code E_CALENDAR_UNAVAILABLE}
 * (transient when trying again may help). Thread-safe.
 */
final class CalDavClient {
    static final String DAV = "DAV:";
    static final String CALDAV = "urn:ietf:params:xml:ns:caldav";
    static final String CALENDAR_SERVER = "http://calendarserver.org/ns/";

    private static final int MAX_REDIRECTS = 5;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient SHARED = HttpClient.newBuilder()
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private static final ThreadLocal<DocumentBuilder> XML = ThreadLocal.withInitial(CalDavClient::documentBuilder);

    private final HttpClient http;
    private final String authorization;
    private final String login;

    /** A client logging in as {@code login} with a password, or with an OAuth2 access token. */
    CalDavClient(String login, CalendarAccounts.Auth auth, String secret) {
        this(SHARED, login, auth, secret);
    }

    CalDavClient(HttpClient http, String login, CalendarAccounts.Auth auth, String secret) {
        this.http = Objects.requireNonNull(http, "http");
        this.login = Objects.requireNonNull(login, "login");
        this.authorization = switch (auth) {
            case PASSWORD ->
                "Basic " + Base64.getEncoder().encodeToString((login + ":" + secret).getBytes(StandardCharsets.UTF_8));
            case OAUTH2 -> "Bearer " + secret;
        };
    }

    /** One {@code response} of a multistatus: its href (a decoded path), its own status, and the properties found. */
    record Response(String href, int status, Map<String, Element> props) {
        Optional<String> text(String namespace, String name) {
            Element found = props.get(key(namespace, name));
            return found == null
                    ? Optional.empty()
                    : Optional.of(found.getTextContent().trim());
        }

        Optional<Element> prop(String namespace, String name) {
            return Optional.ofNullable(props.get(key(namespace, name)));
        }

        boolean is(String namespace, String resourceType) {
            return prop(DAV, "resourcetype")
                    .map(type -> !children(type, namespace, resourceType).isEmpty())
                    .orElse(false);
        }

        /** The decoded path of the first {@code href} inside the property, such as a principal's. */
        Optional<String> hrefIn(String namespace, String name) {
            return prop(namespace, name)
                    .flatMap(p -> children(p, DAV, "href").stream()
                            .findFirst()
                            .map(h -> h.getTextContent().trim()));
        }
    }

    /** A multistatus answer: its responses and, for a {@code sync-collection} report, the new token. */
    record Multistatus(List<Response> responses, Optional<String> syncToken) {}

    /** The answer to a conditional write. */
    sealed interface Write {
        /** Written; the server's new ETag when it gave one. */
        record Done(Optional<String> etag) implements Write {}

        /** Not written: the resource changed since the ETag given (or exists, for a new one): HTTP 412. */
        record Changed() implements Write {}

        /** Not there (a DELETE of what was deleted already). */
        record Gone() implements Write {}
    }

    /** The sync-token given is no longer valid (RFC 6578 §3.2): sync again from nothing. */
    static final class InvalidSyncToken extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidSyncToken() {
            super("the server no longer knows the sync-token", null, false, false);
        }
    }

    /** A calendar collection found by discovery. */
    record Found(URI url, String name, boolean events) {}

    Multistatus propfind(URI url, int depth, String props) {
        String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><d:propfind xmlns:d=\"DAV:\" xmlns:c=\"" + CALDAV
                + "\" xmlns:cs=\"" + CALENDAR_SERVER + "\"><d:prop>" + props + "</d:prop></d:propfind>";
        HttpResponse<byte[]> response = send("PROPFIND", url, body, Map.of("Depth", Integer.toString(depth)));
        requireMultistatus("PROPFIND", url, response);
        return parse(url, response.body());
    }

    /** The members changed and removed since {@code token} (empty: every member), and the token to use next. */
    Multistatus syncCollection(URI url, String token) throws InvalidSyncToken {
        String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>"
                + escape(token) + "</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop>"
                + "</d:sync-collection>";
        HttpResponse<byte[]> response = send("REPORT", url, body, Map.of("Depth", "1"));
        if ((response.statusCode() == 403 || response.statusCode() == 409 || response.statusCode() == 400)
                && new String(response.body(), StandardCharsets.UTF_8).contains("valid-sync-token")) {
            throw new InvalidSyncToken();
        }
        requireMultistatus("REPORT sync-collection", url, response);
        return parse(url, response.body());
    }

    /** The objects at {@code paths} (decoded paths on the server of {@code url}), with their ETags and text. */
    Multistatus multiget(URI url, List<String> paths) {
        StringBuilder body = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?><c:calendar-multiget"
                + " xmlns:d=\"DAV:\" xmlns:c=\"" + CALDAV + "\"><d:prop><d:getetag/><c:calendar-data/></d:prop>");
        for (String path : paths) {
            body.append("<d:href>").append(escape(at(url, path).getRawPath())).append("</d:href>");
        }
        body.append("</c:calendar-multiget>");
        HttpResponse<byte[]> response = send("REPORT", url, body.toString(), Map.of("Depth", "1"));
        requireMultistatus("REPORT calendar-multiget", url, response);
        return parse(url, response.body());
    }

    /** Writes {@code ics} at {@code url}: over the version with {@code etag}, or, without one, only if nothing is there. */
    Write put(URI url, String ics, Optional<String> etag) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "text/calendar; charset=utf-8");
        if (etag.isPresent()) {
            headers.put("If-Match", etag.get());
        } else {
            headers.put("If-None-Match", "*");
        }
        HttpResponse<byte[]> response = send("PUT", url, ics, headers);
        return switch (response.statusCode()) {
            case 200, 201, 204 -> new Write.Done(response.headers().firstValue("ETag"));
            case 412 -> new Write.Changed();
            default -> throw failed("PUT", url, response);
        };
    }

    /** Deletes what is at {@code url} if it is still the version with {@code etag}. */
    Write delete(URI url, Optional<String> etag) {
        HttpResponse<byte[]> response =
                send("DELETE", url, "", etag.map(e -> Map.of("If-Match", e)).orElse(Map.of()));
        return switch (response.statusCode()) {
            case 200, 202, 204 -> new Write.Done(Optional.empty());
            case 404, 410 -> new Write.Gone();
            case 412 -> new Write.Changed();
            default -> throw failed("DELETE", url, response);
        };
    }

    /** Makes a calendar collection at {@code url} named {@code name}. */
    void mkcalendar(URI url, String name) {
        String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><c:mkcalendar xmlns:d=\"DAV:\" xmlns:c=\"" + CALDAV
                + "\"><d:set><d:prop><d:displayname>" + escape(name) + "</d:displayname>"
                + "<c:supported-calendar-component-set><c:comp name=\"VEVENT\"/></c:supported-calendar-component-set>"
                + "</d:prop></d:set></c:mkcalendar>";
        HttpResponse<byte[]> response = send("MKCALENDAR", url, body, Map.of());
        if (response.statusCode() != 201 && response.statusCode() != 200) {
            throw failed("MKCALENDAR", url, response);
        }
    }

    /**
     * The calendars of the user behind {@code start}: {@code start} itself when it is a calendar; else
     * those in the calendar home of its current user's principal, found from {@code start} or, when it
     * names none, from {@code /.well-known/caldav} (RFC 6764).
     *
     * @return the calendar home (for a calendar to be made in) and the calendars found
     */
    Discovery discover(URI start) {
        String props = "<d:resourcetype/><d:displayname/><d:current-user-principal/><c:calendar-home-set/>";
        Response root = first(propfind(start, 0, props), start);
        if (root.is(CALDAV, "calendar")) {
            return new Discovery(parent(start), List.of(found(start, root)));
        }
        Optional<String> principal = root.hrefIn(DAV, "current-user-principal");
        if (principal.isEmpty() && root.hrefIn(CALDAV, "calendar-home-set").isEmpty()) {
            URI wellKnown = start.resolve("/.well-known/caldav");
            root = first(propfind(wellKnown, 0, props), wellKnown);
            principal = root.hrefIn(DAV, "current-user-principal");
        }
        Optional<String> home = root.hrefIn(CALDAV, "calendar-home-set");
        if (home.isEmpty() && principal.isPresent()) {
            URI at = at(start, principal.get());
            home = first(propfind(at, 0, "<c:calendar-home-set/>"), at).hrefIn(CALDAV, "calendar-home-set");
        }
        if (home.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_NOT_FOUND,
                    "found no calendars at " + start + ": the server names no calendar home for '" + login
                            + "' there; give the URL of the calendar itself, or of the server's CalDAV root");
        }
        URI homeUrl = at(start, home.get());
        List<Found> calendars = new ArrayList<>();
        for (Response member : propfind(
                        homeUrl, 1, "<d:resourcetype/><d:displayname/><c:supported-calendar-component-set/>")
                .responses()) {
            if (member.is(CALDAV, "calendar")) {
                calendars.add(found(at(homeUrl, member.href()), member));
            }
        }
        return new Discovery(homeUrl, calendars);
    }

    /** Where a user's calendars live, and which they have. */
    record Discovery(URI home, List<Found> calendars) {}

    private static Found found(URI url, Response response) {
        String name =
                response.text(DAV, "displayname").filter(n -> !n.isBlank()).orElseGet(() -> lastSegment(url));
        boolean events = response.prop(CALDAV, "supported-calendar-component-set")
                .map(set -> {
                    List<Element> comps = children(set, CALDAV, "comp");
                    return comps.isEmpty()
                            || comps.stream()
                                    .anyMatch(c -> c.getAttribute("name").equalsIgnoreCase("VEVENT"));
                })
                .orElse(true);
        return new Found(url, name, events);
    }

    static String lastSegment(URI url) {
        String path = url.getPath();
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    private static URI parent(URI url) {
        String path = url.getPath();
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return url.resolve(trimmed.substring(0, trimmed.lastIndexOf('/') + 1));
    }

    private static Response first(Multistatus answer, URI url) {
        if (answer.responses().isEmpty()) {
            throw new WeftException(ErrorCode.E_CALENDAR_UNAVAILABLE, "the server said nothing about " + url);
        }
        return answer.responses().get(0);
    }

    /** The URL of {@code path} (a decoded path, or an href as a server wrote it) on {@code base}'s server. */
    static URI at(URI base, String path) {
        try {
            if (path.startsWith("http://") || path.startsWith("https://")) {
                return URI.create(path);
            }
            return new URI(base.getScheme(), base.getRawAuthority(), null, null, null)
                    .resolve(new URI(null, null, path, null, null).getRawPath());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new WeftException(
                    ErrorCode.E_CALENDAR_UNAVAILABLE, "the server named a resource '" + path + "' that is not a path");
        }
    }

    /** {@code href} as a decoded path, however the server wrote it (a path or a whole URL, encoded or not). */
    static String path(URI base, String href) {
        try {
            return base.resolve(new URI(href.replace(" ", "%20"))).getPath();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return href;
        }
    }

    /**
     * Sends a request, following redirects. The login goes only to the origin (scheme, host and port)
     * of {@code url}: a redirect elsewhere is followed without it, as a server that names another host
     * must not be handed the password or token given for this one.
     */
    private HttpResponse<byte[]> send(String method, URI url, String body, Map<String, String> headers) {
        String trusted = origin(url);
        URI target = url;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            boolean sameOrigin = origin(target).equals(trusted);
            HttpRequest.Builder request = HttpRequest.newBuilder(target)
                    .timeout(REQUEST_TIMEOUT)
                    .method(
                            method,
                            body.isEmpty()
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            if (!body.isEmpty() && !headers.containsKey("Content-Type")) {
                request.header("Content-Type", "application/xml; charset=utf-8");
            }
            headers.forEach(request::header);
            if (sameOrigin) {
                request.header("Authorization", authorization);
            }
            HttpResponse<byte[]> response;
            try {
                response = sendOnce(request.build());
            } catch (IOException e) {
                throw new TransientException(
                        ErrorCode.E_CALENDAR_UNAVAILABLE,
                        "cannot reach the calendar server " + target.getHost() + ":" + port(target) + " (" + method
                                + " " + target.getPath() + "): " + describe(e),
                        e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransientException(
                        ErrorCode.E_CALENDAR_UNAVAILABLE, "interrupted while calling " + target.getHost(), e);
            }
            int status = response.statusCode();
            if (status == 401 && !sameOrigin) {
                throw new WeftException(
                        ErrorCode.E_CALENDAR_LOGIN_FAILED,
                        "the calendar server " + url.getHost() + ":" + port(url) + " redirected " + method + " to "
                                + target.getHost() + ":" + port(target) + ", which asks for a login: Weft sends"
                                + " the login '" + login + "' only to the server it was connected to; connect"
                                + " again with 'weft memo calendar connect' and the URL the server redirects to");
            }
            if (status == 401) {
                throw new WeftException(
                        ErrorCode.E_CALENDAR_LOGIN_FAILED,
                        "the calendar server " + target.getHost() + ":" + port(target) + " refused the login '" + login
                                + "' (HTTP 401): check the password or token and connect again with 'weft memo"
                                + " calendar connect'");
            }
            if ((status == 301 || status == 302 || status == 307 || status == 308)
                    && response.headers().firstValue("Location").isPresent()) {
                target =
                        target.resolve(response.headers().firstValue("Location").get());
                continue;
            }
            return response;
        }
        throw new WeftException(
                ErrorCode.E_CALENDAR_UNAVAILABLE,
                method + " " + url + " was redirected more than " + MAX_REDIRECTS + " times");
    }

    /**
     * Sends {@code request}, again once when the connection fails: a server that answers HTTP/1.0
     * (Radicale) closes each connection, and the JDK's client may take it from its pool just before it
     * sees that. Every request made here may be repeated: reads, and writes conditional on an ETag.
     */
    private HttpResponse<byte[]> sendOnce(HttpRequest request) throws IOException, InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (java.net.ConnectException | java.net.http.HttpTimeoutException e) {
            throw e;
        } catch (IOException stale) {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        }
    }

    /** Where a request goes, for deciding whether it may carry the login: scheme, host and port. */
    private static String origin(URI url) {
        return String.valueOf(url.getScheme()).toLowerCase(java.util.Locale.ROOT) + "://"
                + String.valueOf(url.getHost()).toLowerCase(java.util.Locale.ROOT) + ":" + port(url);
    }

    private static int port(URI url) {
        return url.getPort() != -1 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    private static void requireMultistatus(String what, URI url, HttpResponse<byte[]> response) {
        if (response.statusCode() != 207) {
            throw failed(what, url, response);
        }
    }

    private static WeftException failed(String what, URI url, HttpResponse<byte[]> response) {
        int status = response.statusCode();
        String message = "the calendar server answered " + what + " " + url.getPath() + " with HTTP " + status;
        if (status == 403) {
            return new WeftException(
                    ErrorCode.E_CALENDAR_LOGIN_FAILED, message + ": the login may not use this calendar");
        }
        if (status == 404) {
            return new WeftException(ErrorCode.E_CALENDAR_UNAVAILABLE, message + ": there is no such calendar");
        }
        return status >= 500 || status == 429
                ? new TransientException(ErrorCode.E_CALENDAR_UNAVAILABLE, message)
                : new WeftException(ErrorCode.E_CALENDAR_UNAVAILABLE, message);
    }

    /** The responses of a multistatus body, each property found (status 2xx) by its namespace and name. */
    static Multistatus parse(URI base, byte[] body) {
        Document document;
        try {
            DocumentBuilder builder = XML.get();
            builder.reset();
            document = builder.parse(new ByteArrayInputStream(body));
        } catch (SAXException | IOException e) {
            throw new WeftException(
                    ErrorCode.E_CALENDAR_UNAVAILABLE, "the calendar server's answer is not XML: " + e.getMessage());
        }
        Element root = document.getDocumentElement();
        List<Response> responses = new ArrayList<>();
        for (Element response : children(root, DAV, "response")) {
            List<Element> hrefs = children(response, DAV, "href");
            if (hrefs.isEmpty()) {
                continue;
            }
            int status = children(response, DAV, "status").stream()
                    .findFirst()
                    .map(s -> status(s.getTextContent()))
                    .orElse(0);
            Map<String, Element> props = new LinkedHashMap<>();
            for (Element propstat : children(response, DAV, "propstat")) {
                int code = children(propstat, DAV, "status").stream()
                        .findFirst()
                        .map(s -> status(s.getTextContent()))
                        .orElse(200);
                if (code < 200 || code > 299) {
                    continue;
                }
                for (Element prop : children(propstat, DAV, "prop")) {
                    for (Element value : children(prop)) {
                        props.put(key(value.getNamespaceURI(), value.getLocalName()), value);
                    }
                }
            }
            for (Element href : hrefs) {
                responses.add(new Response(path(base, href.getTextContent().trim()), status, props));
            }
        }
        Optional<String> token = children(root, DAV, "sync-token").stream()
                .findFirst()
                .map(t -> t.getTextContent().trim());
        return new Multistatus(responses, token);
    }

    private static int status(String line) {
        String[] parts = line.trim().split("\\s+");
        try {
            return parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static String key(String namespace, String name) {
        return "{" + (namespace == null ? "" : namespace) + "}" + name;
    }

    static List<Element> children(Element parent, String namespace, String name) {
        List<Element> found = new ArrayList<>();
        for (Element child : children(parent)) {
            if (namespace.equals(child.getNamespaceURI()) && name.equals(child.getLocalName())) {
                found.add(child);
            }
        }
        return found;
    }

    private static List<Element> children(Element parent) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE) {
                found.add((Element) nodes.item(i));
            }
        }
        return found;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    private static DocumentBuilder documentBuilder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            return factory.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser has namespaces", e);
        }
    }

    /** The text of a calendar object in a multiget answer. */
    static Optional<String> calendarData(Response response) {
        return response.text(CALDAV, "calendar-data").filter(t -> !t.isBlank());
    }
}
