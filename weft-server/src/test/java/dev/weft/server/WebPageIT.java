package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Notifications;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * which {@code .ci/run} installs): logging in, chatting with Memo in English and Hebrew, approving
 * inline, cancelling and approving runs, a run's graph changing color as it goes, reminders popping
 * up, and the phone-sized layout. A screenshot of each page is kept under {@code
 * target/screenshots/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class WebPageIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target/screenshots");
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private ServerFixture fixture;
    private ChromeDriverService service;
    private WebDriver browser;

    @BeforeAll
    void start(@TempDir Path dir) throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("the page's browser tests need Debian's Chromium: " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (apt-get install -y chromium chromium-driver; .ci/run installs them)");
        }
        // Every assistant on the class path, the concierge's demo shop loaded.
        fixture = new ServerFixture(
                dir,
                (builder, store) -> builder.assistants(dev.weft.assistant.Assistants.openAll(
                        dev.weft.assistant.AssistantEnvironment.offline(store, dir)
                                // The page is shown with the demo's policy: an email is taken as proof.
                                .env(java.util.Map.of("WEFT_SHOP_VERIFY", "demo")))));
        dev.weft.concierge.shop.DemoShop.load(
                dev.weft.concierge.shop.Shop.open(fixture.store), java.time.Instant.now());
        // The driver and the browser are named, so Selenium Manager never looks for (or downloads) either.
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--lang=en-US",
                "--user-data-dir=" + Files.createTempDirectory(dir, "chromium"));
        browser = new ChromeDriver(service, options);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @BeforeEach
    void desktop() {
        browser.manage().window().setSize(new Dimension(1280, 900));
    }

    @Test
    void logsInWithAnApiKeyAndRefusesAnUnknownOne() {
        browser.get(fixture.base.toString());
        script("sessionStorage.clear()");
        browser.navigate().refresh();
        WebElement key = visible(By.id("key"));
        screenshot("login");

        key.sendKeys("weft_not_a_key");
        browser.findElement(By.cssSelector("#login-form button")).click();
        until(b -> b.findElement(By.id("login-error")).getText().contains("not known"));
        key.clear();
        key.sendKeys(fixture.dana);
        browser.findElement(By.cssSelector("#login-form button")).click();

        visible(By.id("message"));
        assertThat(browser.findElement(By.id("login")).isDisplayed()).isFalse();
        assertThat(script("return sessionStorage.getItem('weft.key')")).isEqualTo(fixture.dana);
    }

    @Test
    void chatsWithMemoInEnglishAndHebrewRightToLeft() {
        logIn("#/memo");

        WebElement english = say("remind me tomorrow at 9 to call Dana");
        WebElement hebrew = say("תזכיר לי מחר ב-9 להתקשר לדנה");

        assertThat(english.getText()).contains("I'll remind you").contains("call Dana");
        assertThat(english.getAttribute("data-status")).isEqualTo("COMPLETED");
        assertThat(hebrew.getText()).contains("דנה");
        assertThat(direction(hebrew.findElement(By.cssSelector(".text")))).isEqualTo("rtl");
        List<WebElement> mine = browser.findElements(By.cssSelector(".msg.user .text"));
        assertThat(direction(mine.get(mine.size() - 1))).isEqualTo("rtl");
        assertThat(direction(mine.get(mine.size() - 2))).isEqualTo("ltr");
        hebrew.findElement(By.cssSelector(".plan summary")).click();
        screenshot("memo-chat");
    }

    @Test
    void chatsWithTheConciergeInItsTabAndItsYesButtonCarriesTheChangeOut() {
        logIn("#/concierge");

        WebElement asked = sayToConcierge("I want to return the wool scarf from order W1054. daniel.cohen@example.com");
        assertThat(asked.getText()).contains("Wool Scarf").contains("Shall I go ahead?");
        assertThat(asked.getAttribute("data-status")).isEqualTo("WAITING");
        int before = conciergeReplies().size();
        asked.findElement(By.cssSelector(".confirm .approve")).click();
        until(b -> conciergeReplies().size() > before
                && conciergeReplies().get(before).getAttribute("data-status") != null);
        WebElement done = conciergeReplies().get(before);
        WebElement hebrew = sayToConcierge("מה הסטטוס של הזמנה W1052? המייל שלי ronit.dahan@example.co.il");

        assertThat(done.getText()).contains("return of Wool Scarf");
        assertThat(done.findElement(By.cssSelector(".run-link a")).getAttribute("href"))
                .contains("#/runs/");
        assertThat(hebrew.getText()).contains("W1052");
        assertThat(direction(hebrew.findElement(By.cssSelector(".text")))).isEqualTo("rtl");
        screenshot("concierge-chat");
    }

    @Test
    void itsTabsAreTheAssistantsTheServerListsAndEachChatsThroughItsOwnRoute() {
        List<String> listed = new ArrayList<>();
        fixture.get("api/assistants", fixture.dana)
                .body()
                .path("assistants")
                .forEach(a -> listed.add(a.path("name").asText()));
        List<String> expected = new ArrayList<>(listed);
        expected.add("runs");

        logIn("#/concierge");
        until(b -> b.findElements(By.cssSelector("#nav a")).size() == expected.size());
        List<String> tabs = browser.findElements(By.cssSelector("#nav a")).stream()
                .map(a -> a.getAttribute("data-view"))
                .toList();
        WebElement answered =
                sayToConcierge("what is the status of order W1052? my email is ronit.dahan@example.co.il");

        assertThat(listed).contains("memo", "concierge");
        assertThat(tabs).containsExactlyElementsOf(expected);
        assertThat(browser.findElement(By.cssSelector("#nav a[data-view='concierge']"))
                        .getAttribute("class"))
                .contains("active");
        assertThat(answered.getText()).contains("W1052");
        // The chat went through the assistant's own route, as any assistant's would.
        assertThat((String) script("return performance.getEntriesByType('resource').map(e => e.name)"
                        + ".filter(n => n.includes('/messages') || n.includes('/v1/')).join(' ')"))
                .contains("/api/assistants/concierge/messages")
                .doesNotContain("/v1/");
        screenshot("assistant-tabs");
    }

    @Test
    void approvesABulkDeleteInlineAndMemoSaysWhatItDid() {
        logIn("#/memo");
        say("remind me tomorrow at 9 to water the plants");

        WebElement waiting = say("delete all my reminders");
        assertThat(waiting.getAttribute("data-status")).isEqualTo("WAITING");
        WebElement approval = waiting.findElement(By.cssSelector(".approval"));
        assertThat(approval.getText())
                .contains("Needs your approval")
                .contains("This will delete your reminder \"water the plants\"")
                .as("the call's JSON waits behind its toggle")
                .doesNotContain("\"operation\"");
        screenshot("memo-approval");
        approval.findElement(By.cssSelector("details.raw summary")).click();
        until(b -> approval.findElement(By.cssSelector("details.raw pre")).isDisplayed());
        assertThat(approval.findElement(By.cssSelector("details.raw pre")).getText())
                .contains("deleteAll");
        int before = replies().size();
        approval.findElement(By.cssSelector("button.approve")).click();

        until(b -> replies().size() > before
                && !replies().get(replies().size() - 1).getAttribute("class").contains("pending"));
        WebElement done = replies().get(replies().size() - 1);
        assertThat(done.getText()).contains("Deleted");
        assertThat(fixture.get("api/memo/reminders", fixture.dana).body().path("upcoming"))
                .isEmpty();
    }

    @Test
    void asksForApprovalInHebrewWhenTheUserWritesHebrew() {
        String noa =
                ApiKeys.open(fixture.store).create("noa", false, Instant.now()).secret();
        logIn("#/memo", noa);
        say("תזכיר לי מחר ב-9 להשקות את העציצים");

        WebElement waiting = say("תמחק את כל התזכורות");
        assertThat(waiting.getAttribute("data-status")).isEqualTo("WAITING");
        WebElement approval = waiting.findElement(By.cssSelector(".approval"));
        assertThat(approval.getText())
                .contains("נדרש אישורך")
                .contains("להשקות את העציצים")
                .doesNotContain("Needs your approval");
        assertThat(approval.getAttribute("dir")).isEqualTo("rtl");
        assertThat(approval.findElement(By.cssSelector("button.approve")).getText())
                .isEqualTo("אישור");
        screenshot("memo-approval-hebrew");
        approval.findElement(By.cssSelector("button.reject")).click();
        until(b -> approval.getText().contains("נדחה"));
    }

    @Test
    void answersMemosQuestionInline() {
        String lior =
                ApiKeys.open(fixture.store).create("lior", false, Instant.now()).secret();
        fixture.ask(lior, "remind me tomorrow at 9 to call Dana about the report");
        fixture.ask(lior, "remind me in two weeks to call Dana about the trip");
        logIn("#/memo", lior);

        WebElement asked = say("delete the reminder to call Dana");
        WebElement question = asked.findElement(By.cssSelector(".question"));
        List<WebElement> options = question.findElements(By.cssSelector("button"));
        assertThat(options).hasSize(2);
        assertThat(options.get(1).getText()).contains("trip");
        screenshot("memo-question");
        int before = replies().size();
        options.get(1).click();

        until(b -> replies().size() > before && replies().get(before).getAttribute("data-status") != null);
        assertThat(replies().get(before).getText()).contains("Deleted \"call Dana about the trip\".");
    }

    @Test
    void aReminderPopsUpWhenItFallsDue() {
        // A user of their own: a stream that an earlier test's page left open would take dana's reminder.
        String noa =
                ApiKeys.open(fixture.store).create("noa", false, Instant.now()).secret();
        fixture.ask(noa, "what are my tasks?");
        logIn("#/memo", noa);
        Instant due = Instant.now();
        MemoData.open(fixture.store)
                .notifications()
                .add(new Notifications.Notification(
                        "noa",
                        "task:popup@" + due.toEpochMilli(),
                        Notifications.REMINDER_DUE,
                        "task",
                        "popup",
                        "feed the cat",
                        due,
                        due,
                        false));

        WebElement toast = visible(By.cssSelector(".toast.reminder"));

        assertThat(toast.getText()).contains("feed the cat");
        screenshot("memo-reminder");
    }

    @Test
    void cancelsAWaitingRunFromTheRunsPage() {
        String runId = startWorkflow(approvalWorkflow("cancel-me"), "{\"amount\": 150}");
        logIn("#/runs");

        click(By.cssSelector("#run-list li[data-run='" + runId + "'] a"));
        until(b -> status().equals("WAITING"));
        assertThat(browser.findElement(By.id("run-waiting")).getText()).contains("refund over 100 needs a manager");
        screenshot("runs-list-then-waiting-run");
        click(By.id("cancel"));

        until(b -> status().equals("CANCELLED"));
        assertThat(fixture.get("api/runs/" + runId, fixture.dana)
                        .body()
                        .path("status")
                        .asText())
                .isEqualTo("CANCELLED");
        browser.get(fixture.base + "#/runs");
        visible(By.cssSelector("#run-list li[data-run='" + runId + "'][data-status='CANCELLED']"));
        screenshot("runs");
    }

    @Test
    void theRunsPageShowsAnAssistantsApprovalInWordsWithTheCallBehindDetails() {
        String tamar = ApiKeys.open(fixture.store)
                .create("tamar", false, Instant.now())
                .secret();
        fixture.ask(tamar, "remind me tomorrow at 9 to feed the cat");
        String runId =
                fixture.ask(tamar, "delete all my reminders").path("runId").asText();
        logIn("#/runs/" + runId, tamar);

        until(b -> status().equals("WAITING"));
        WebElement waiting = visible(By.cssSelector("#run-waiting .interrupt"));
        until(b -> !waiting.findElements(By.cssSelector(".says")).isEmpty());
        WebElement says = waiting.findElement(By.cssSelector(".says"));
        assertThat(says.getText()).startsWith("This will delete your reminder \"feed the cat\"");
        assertThat(direction(says)).isEqualTo("ltr");
        assertThat(waiting.getText())
                .as("the call's JSON waits behind its toggle")
                .doesNotContain("\"operation\"")
                .doesNotContain("taskOperations");
        screenshot("run-waiting-in-words");
        waiting.findElement(By.cssSelector("details.raw summary")).click();
        until(b -> waiting.findElement(By.cssSelector("details.raw pre")).isDisplayed());
        assertThat(waiting.findElement(By.cssSelector("details.raw")).getText())
                .contains("taskOperations")
                .contains("deleteAll");
        screenshot("run-waiting-in-words-details");
    }

    @Test
    void theRunsPageLaysAHebrewApprovalOutRightToLeft() {
        String yael =
                ApiKeys.open(fixture.store).create("yael", false, Instant.now()).secret();
        fixture.ask(yael, "תזכיר לי מחר ב-9 להאכיל את החתול");
        String runId = fixture.ask(yael, "תמחק את כל התזכורות").path("runId").asText();
        logIn("#/runs/" + runId, yael);

        until(b -> status().equals("WAITING"));
        WebElement waiting = visible(By.cssSelector("#run-waiting .interrupt"));
        until(b -> !waiting.findElements(By.cssSelector(".says")).isEmpty());
        WebElement says = waiting.findElement(By.cssSelector(".says"));
        assertThat(says.getText()).contains("למחוק", "להאכיל את החתול");
        assertThat(direction(says)).isEqualTo("rtl");
        assertThat(says.getAttribute("lang")).isEqualTo("he");
        assertThat(waiting.findElement(By.cssSelector("details.raw summary")).getText())
                .isEqualTo("פרטים");
        assertThat(waiting.getText()).doesNotContain("deleteAll");
        screenshot("run-waiting-in-words-hebrew");
    }

    @Test
    void approvesAWaitingStepShowingWhatItWillDo() {
        String runId = startWorkflow(approvalWorkflow("approve-me"), "{\"amount\": 250}");
        logIn("#/runs/" + runId);

        until(b -> status().equals("WAITING"));
        assertThat(node("approve").getAttribute("data-status")).isEqualTo("WAITING");
        assertThat(node("refund").getAttribute("data-status")).isEqualTo("PENDING");
        screenshot("run-waiting-approval");
        click(By.id("approve"));

        until(b -> status().equals("COMPLETED"));
        until(b -> node("refund").getAttribute("data-status").equals("COMPLETED"));
        assertThat(fixture.get("api/runs/" + runId, fixture.dana)
                        .body()
                        .path("outputs")
                        .path("refund")
                        .path("approvedBy")
                        .asText())
                .isEqualTo("dana");
        // The steps re-render as the run's last events arrive: open the step's output, again if a
        // re-render closed it, until it shows who approved it.
        until(b -> {
            WebElement step = b.findElement(By.cssSelector("#steps li[data-node='refund']"));
            if (step.getText().contains("\"approvedBy\": \"dana\"")) {
                return true;
            }
            if (step.findElement(By.tagName("details")).getAttribute("open") == null) {
                step.findElement(By.tagName("summary")).click();
            }
            return null;
        });
        screenshotWholePage("run-approved");
    }

    @Test
    void rerunsAFinishedRunWithAStepPinnedAndForksItAfterAStep() {
        String runId = startWorkflow(approvalWorkflow("rerun-me"), "{\"amount\": 300}");
        fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}");
        logIn("#/runs/" + runId);
        until(b -> status().equals("COMPLETED"));

        click(By.cssSelector("#run-actions .rerun summary"));
        click(By.cssSelector("#run-actions .rerun input[value='approve']"));
        screenshot("run-rerun-pinned");
        click(By.cssSelector("#run-actions .rerun button[type='submit']"));
        String rerun = until(b -> {
            String shown = runShown();
            return shown.equals(runId) ? null : shown;
        });
        until(b -> status().equals("COMPLETED"));
        // Read through until: the steps may re-render between finding one and reading it.
        until(b -> b.findElement(By.cssSelector("#steps li[data-node='approve']"))
                        .getText()
                        .contains("pinned")
                ? true
                : null);
        until(b -> node("refund").getAttribute("data-status").equals("COMPLETED"));

        browser.get(fixture.base + "#/runs/" + runId);
        until(b -> runShown().equals(runId) && status().equals("COMPLETED"));
        click(By.cssSelector("#run-actions .fork summary"));
        new Select(browser.findElement(By.cssSelector("#run-actions .fork select"))).selectByValue("2");
        click(By.cssSelector("#run-actions .fork button[type='submit']"));
        String fork = until(b -> {
            String shown = runShown();
            return shown.equals(runId) ? null : shown;
        });
        until(b -> status().equals("WAITING"));

        assertThat(List.of(runId, rerun, fork)).doesNotHaveDuplicates();
        assertThat(node("approve").getAttribute("data-status")).isEqualTo("WAITING");
        assertThat(fixture.get("api/runs/" + fork, fixture.dana)
                        .body()
                        .path("status")
                        .asText())
                .isEqualTo("WAITING");
        screenshot("run-forked");
    }

    @Test
    void aRunsGraphChangesColorAsItsNodesRun() {
        // A step's start reaches the store, and so the event stream, with its run's next commit: here
        // when the quick branch moves on while the slow one still sleeps (see docs/server.md).
        String briefing = """
                {"id": "briefing", "nodes": [
                  {"id": "in", "type": "trigger"},
                  {"id": "weather", "type": "delay", "config": {"ms": 4000}},
                  {"id": "calendar", "type": "delay", "config": {"ms": 200}},
                  {"id": "meetings", "type": "transform", "config": {"output": {"count": "size(input.meetings)"}}},
                  {"id": "check", "type": "condition", "config": {"expression": "input.city != ''"}},
                  {"id": "brief", "type": "transform",
                   "config": {"output": {"text": "'sunny in ' + input.city + ', ' + string(nodes.meetings.count) + ' meetings'"}}},
                  {"id": "no_city", "type": "transform", "config": {"output": {"text": "'where are you?'"}}}],
                 "connections": [
                  {"source": "in", "target": "weather"},
                  {"source": "in", "target": "calendar"},
                  {"source": "calendar", "target": "meetings"},
                  {"source": "weather", "target": "check"},
                  {"source": "meetings", "target": "check"},
                  {"source": "check", "target": "brief", "sourceHandle": "positive"},
                  {"source": "check", "target": "no_city", "sourceHandle": "negative"}]}""";
        assertThat(fixture.post("api/workflows", fixture.dana, briefing).status())
                .isEqualTo(201);
        logIn("#/runs");
        String runId = fixture.post(
                        "api/workflows/briefing/runs",
                        fixture.dana,
                        "{\"input\": {\"city\": \"Haifa\", \"meetings\": [1, 2]}, \"wait\": false}")
                .body()
                .path("runId")
                .asText();
        browser.get(fixture.base + "#/runs/" + runId);

        until(b -> node("weather").getAttribute("data-status").equals("RUNNING"));
        String running = fill("weather");
        assertThat(node("brief").getAttribute("data-status")).isEqualTo("PENDING");
        String pending = fill("brief");
        screenshot("run-graph-running");
        until(b -> status().equals("COMPLETED"));
        until(b -> node("brief").getAttribute("data-status").equals("COMPLETED"));
        // A node's fill eases over a quarter of a second (app.css): read the colours once both have
        // settled on the same one, never in the middle of the brief's transition.
        until(b -> fill("brief").equals(fill("weather")));
        String completed = fill("weather");

        assertThat(List.of(pending, running, completed)).doesNotHaveDuplicates();
        assertThat(fill("brief")).isEqualTo(completed);
        assertThat(node("no_city").getAttribute("data-status")).isIn("PENDING", "SKIPPED");
        assertThat(browser.findElements(By.cssSelector("#events li[data-type='step.completed']")))
                .hasSizeGreaterThanOrEqualTo(6);
        screenshotWholePage("run-graph-completed");
    }

    @Test
    void fitsAPhoneSizedScreen() {
        String runId = startWorkflow(approvalWorkflow("on-the-phone"), "{\"amount\": 500}");
        browser.manage().window().setSize(new Dimension(390, 844));
        logIn("#/memo");
        say("תזכיר לי מחר ב-9 להתקשר לדנה");
        assertThat(((Number) script("return window.innerWidth")).intValue()).isLessThanOrEqualTo(390);
        assertNoSidewaysScroll();
        screenshot("phone-memo");

        browser.get(fixture.base + "#/runs/" + runId);
        until(b -> status().equals("WAITING"));
        assertNoSidewaysScroll();
        screenshot("phone-run");
        browser.get(fixture.base + "#/runs");
        visible(By.cssSelector("#run-list li[data-run='" + runId + "']"));
        assertNoSidewaysScroll();
        screenshot("phone-runs");
    }

    // ---- helpers ----

    private static String approvalWorkflow(String id) {
        try {
            return Files.readString(Path.of("../examples/workflows/approval.json"))
                    .replace("\"refund-approval\"", "\"" + id + "\"");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Uploads {@code workflow} as dana's and runs it until it ends or waits; its run id. */
    private String startWorkflow(String workflow, String input) {
        ServerFixture.Answer uploaded = fixture.post("api/workflows", fixture.dana, workflow);
        assertThat(uploaded.status()).isIn(200, 201);
        String id = uploaded.body().path("id").asText();
        ServerFixture.Answer run =
                fixture.post("api/workflows/" + id + "/runs", fixture.dana, "{\"input\": " + input + "}");
        assertThat(run.status()).as(run.body().toString()).isEqualTo(200);
        return run.body().path("runId").asText();
    }

    /** Opens the page at {@code fragment}, logged in as dana. */
    private void logIn(String fragment) {
        logIn(fragment, fixture.dana);
    }

    /**
     * Opens the page at {@code fragment}, logged in with {@code key}: the key is put in the tab's
     * storage from the page's icon (same origin, no script of its own), so the page itself loads once.
     */
    private void logIn(String fragment, String key) {
        browser.get(fixture.base + "assets/icon.svg");
        script("sessionStorage.setItem('weft.key', arguments[0])", key);
        browser.get(fixture.base + fragment);
        visible(By.id("nav"));
    }

    /** Sends {@code message} to Memo and waits for the reply; the reply's bubble. */
    private WebElement say(String message) {
        int before = replies().size();
        WebElement input = visible(By.id("message"));
        input.sendKeys(message);
        browser.findElement(By.id("send")).click();
        until(b -> replies().size() > before && replies().get(before).getAttribute("data-status") != null);
        return replies().get(before);
    }

    /** Sends {@code message} to the concierge and waits for its reply; the reply's bubble. */
    private WebElement sayToConcierge(String message) {
        int before = conciergeReplies().size();
        WebElement input = visible(By.id("concierge-message"));
        input.sendKeys(message);
        browser.findElement(By.id("concierge-send")).click();
        until(b -> conciergeReplies().size() > before
                && conciergeReplies().get(before).getAttribute("data-status") != null);
        return conciergeReplies().get(before);
    }

    private List<WebElement> conciergeReplies() {
        return new ArrayList<>(browser.findElements(By.cssSelector(".msg.concierge:not(.pending)")));
    }

    private List<WebElement> replies() {
        return new ArrayList<>(browser.findElements(By.cssSelector(".msg.memo")));
    }

    private WebElement node(String id) {
        return browser.findElement(By.cssSelector("#graph g.node[data-node='" + id + "']"));
    }

    private String fill(String id) {
        return (String) script("return getComputedStyle(arguments[0].querySelector('rect')).fill", node(id));
    }

    /** The id of the run the page shows, from its address. */
    private String runShown() {
        String url = browser.getCurrentUrl();
        return url.substring(url.indexOf("#/runs/") + "#/runs/".length());
    }

    private String status() {
        return String.valueOf(browser.findElement(By.id("run-status")).getAttribute("data-status"));
    }

    private String direction(WebElement element) {
        return (String) script("return getComputedStyle(arguments[0]).direction", element);
    }

    private void assertNoSidewaysScroll() {
        Number overflow = (Number) script("return document.documentElement.scrollWidth - window.innerWidth");
        assertThat(overflow.intValue()).as("how far the page scrolls sideways").isLessThanOrEqualTo(0);
    }

    /** Clicks what {@code by} finds once it is there, again if the page redrew it meanwhile. */
    private void click(By by) {
        until(b -> {
            b.findElement(by).click();
            return true;
        });
    }

    private WebElement visible(By by) {
        return until(b -> b.findElements(by).stream()
                .filter(WebElement::isDisplayed)
                .findFirst()
                .orElse(null));
    }

    private <T> T until(Function<WebDriver, T> condition) {
        try {
            return new WebDriverWait(browser, PATIENCE)
                    .ignoring(StaleElementReferenceException.class)
                    .until(condition::apply);
        } catch (TimeoutException e) {
            String name = "failed-" + System.currentTimeMillis();
            screenshot(name);
            dumpThreads(SCREENSHOTS.resolve(name + "-threads.txt"));
            throw e;
        }
    }

    private Object script(String js, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(js, args);
    }

    /** What every thread of this JVM (the server's virtual ones too) is doing, to see what a stuck page waits for. */
    private static void dumpThreads(Path file) {
        try {
            new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(ProcessHandle.current().pid()),
                            "Thread.dump_to_file",
                            "-format=text",
                            file.toAbsolutePath().toString())
                    .inheritIO()
                    .start()
                    .waitFor();
        } catch (IOException e) {
            System.err.println("no thread dump: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A screenshot of the whole page, however long: the window is made as tall as the page for it. */
    private void screenshotWholePage(String name) {
        Dimension size = browser.manage().window().getSize();
        int height = ((Number) script("return document.documentElement.scrollHeight")).intValue();
        browser.manage()
                .window()
                .setSize(new Dimension(size.getWidth(), Math.min(Math.max(height, size.getHeight()), 4000)));
        try {
            screenshot(name);
        } finally {
            browser.manage().window().setSize(size);
        }
    }

    private void screenshot(String name) {
        try {
            Path shot =
                    ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
