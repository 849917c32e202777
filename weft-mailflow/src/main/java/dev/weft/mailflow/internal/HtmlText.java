package dev.weft.mailflow.internal;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/** HTML mail turned into text with its line breaks, the quoted part of a reply set apart. Stateless. */
public final class HtmlText {
    /** What mail clients wrap a quoted reply in: Gmail, Apple Mail, Thunderbird, Outlook (web and desktop), Yahoo. */
    private static final String QUOTES = "blockquote, div.gmail_quote, div.gmail_extra, div#appendonsend, "
            + "div#divRplyFwdMsg, div.moz-cite-prefix, div.yahoo_quoted, div#mail-editor-reference-message-container";

    private HtmlText() {}

    /** The text of an HTML body, and the text of what it quoted. */
    public record Split(String text, String quoted) {}

    public static Split split(String html) {
        Document document = Jsoup.parse(html);
        document.select("script, style, head, title").remove();
        StringBuilder quoted = new StringBuilder();
        for (Element quote : document.select(QUOTES)) {
            if (quote.parents().stream().anyMatch(p -> p.is(QUOTES))) {
                continue;
            }
            quoted.append(text(quote)).append('\n');
            // Outlook puts everything after its reply header in siblings, not inside it.
            if (quote.id().equals("divRplyFwdMsg") || quote.id().equals("appendonsend")) {
                Element next = quote.nextElementSibling();
                while (next != null) {
                    Element after = next.nextElementSibling();
                    quoted.append(text(next)).append('\n');
                    next.remove();
                    next = after;
                }
            }
            quote.remove();
        }
        return new Split(
                text(document.body() == null ? document : document.body()),
                quoted.toString().strip());
    }

    /** The text of an element: blocks and {@code <br>} become line breaks, runs of blank lines one. */
    static String text(Element root) {
        StringBuilder out = new StringBuilder();
        NodeTraversor.traverse(
                new NodeVisitor() {
                    @Override
                    public void head(Node node, int depth) {
                        if (node instanceof TextNode text) {
                            out.append(text.text().replace('\u00a0', ' '));
                        } else if (node instanceof Element element) {
                            if (element.normalName().equals("br")) {
                                out.append('\n');
                            } else if (element.isBlock() || element.normalName().equals("li")) {
                                newline(out);
                            }
                        }
                    }

                    @Override
                    public void tail(Node node, int depth) {
                        if (node instanceof Element element
                                && (element.isBlock() || element.normalName().equals("tr"))) {
                            newline(out);
                        }
                    }
                },
                root);
        return out.toString()
                .replaceAll("[ \\t]+\\n", "\n")
                .replaceAll("\\n[ \\t]+", "\n")
                .replaceAll("\\n{3,}", "\n\n")
                .strip();
    }

    private static void newline(StringBuilder out) {
        if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') {
            out.append('\n');
        }
    }
}
