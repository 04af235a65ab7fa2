package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.tck.net.FreePorts;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code @DistributedLock(tree = ..., path = ...)}: the method runs holding a path of a tree, which keeps out calls on
 * the same path, its ancestors and its descendants, never its siblings, against a real Redis; and every mistake fails
 * at start-up or, for bad values, before the method runs.
 */
@SpringBootTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PathAnnotationTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));
    private static final Duration BOUND = Duration.ofSeconds(10);

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", () -> TestRedis.shared().port());
    }

    @Autowired
    private Folders folders;

    @Autowired
    private Projects projects;

    @Autowired
    private Lock lock;

    private final String project = UUID.randomUUID().toString();

    @Test
    void aMethodHoldingAPathKeepsOutItsAncestorAndDescendantButNotItsSibling() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<String> holding =
                CompletableFuture.supplyAsync(() -> folders.holdUntil(project, "A/C", entered, leave));
        try {
            assertThat(entered.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> folders.edit(project, "A"))
                    .isInstanceOfSatisfying(
                            LockNotAcquiredException.class,
                            e -> assertThat(e.getMessage()).contains("'A'"));
            assertThatThrownBy(() -> folders.edit(project, "A/C/D"))
                    .isInstanceOfSatisfying(
                            LockNotAcquiredException.class,
                            e -> assertThat(e.getMessage()).contains("'A/C/D'"));
            assertThatThrownBy(() -> folders.edit(project, "")).isInstanceOf(LockNotAcquiredException.class);
            assertThat(folders.edit(project, "A/B")).isEqualTo("edited A/B");
            assertThat(folders.edit(UUID.randomUUID().toString(), "A/C"))
                    .as("the same path in another tree")
                    .isEqualTo("edited A/C");
        } finally {
            leave.countDown();
        }
        assertThat(holding.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("A/C");
        assertThat(folders.edit(project, "A")).isEqualTo("edited A");
    }

    @Test
    void aCallOnAnAncestorWaitsUntilTheHolderReturns() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<String> holding =
                CompletableFuture.supplyAsync(() -> folders.holdUntil(project, "A/C", entered, leave));
        assertThat(entered.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> folders.editWaiting(project, "A"));
        await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> !waiting.isDone());
        leave.countDown();

        assertThat(holding.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("A/C");
        assertThat(waiting.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("edited A");
    }

    @Test
    void segmentsFromAListOrArrayAreJoinedIntoThePath() throws Exception {
        assertThat(folders.editSegments(project, List.of("A", "C"))).isEqualTo("A/C");
        assertThat(folders.editArray(project, new String[] {"A", "B", "D"})).isEqualTo("A/B/D");
        assertThat(folders.editSegments(project, List.of()))
                .as("no segments: the whole tree")
                .isEmpty();

        try (LockHandle ancestor = holdElsewhere(project, "A")) {
            assertThatThrownBy(() -> folders.editSegments(project, List.of("A", "C")))
                    .isInstanceOf(LockNotAcquiredException.class);
        }
    }

    @Test
    void aNestedCallOnTheSamePathOrBelowReEntersTheHeldPath() {
        long[] tokens = projects.reorganize(project);

        assertThat(tokens[0]).isPositive();
        assertThat(tokens)
                .as("the outer hold and both nested calls share one fencing token")
                .containsOnly(tokens[0]);
        assertThat(folders.edit(project, "A"))
                .as("released after the outer call")
                .isEqualTo("edited A");
    }

    @Test
    void aBusyPathCallsTheFallbackNamingThePath() throws Exception {
        int before = folders.runs();
        try (LockHandle ancestor = holdElsewhere(project, "A")) {
            assertThat(folders.editOrSkip(project, "A/C"))
                    .startsWith("skipped:")
                    .contains("'A/C'", "was not acquired");
        }
        assertThat(folders.runs()).isEqualTo(before);
        assertThat(folders.editOrSkip(project, "A/C")).isEqualTo("edited A/C");
    }

    @Test
    void anInvalidPathOrTreeAtCallTimeNamesTheMethodExpressionAndParametersAndTheMethodDoesNotRun() {
        int before = folders.runs();

        assertThatThrownBy(() -> folders.edit(project, "a//b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("@DistributedLock path of")
                .hasMessageContaining("Folders.edit(String, String)")
                .hasMessageContaining(
                        "expression \"#folder\" over the parameters [0: String projectId, 1: String folder]")
                .hasMessageNotContaining(project)
                .hasMessageContaining("path \"a//b\" has a blank segment")
                .hasMessageContaining("the method did not run");
        assertThatThrownBy(() -> folders.edit(project, "A/../B"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a \"..\" segment");
        assertThatThrownBy(() -> folders.edit(project, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("path of")
                .hasMessageContaining("evaluated to null");
        assertThatThrownBy(() -> folders.inTree("docs", List.of("A/B", "C")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expression \"#segments\"")
                .hasMessageContaining("has the segment \"A/B\"")
                .hasMessageContaining("has no '/'");
        assertThatThrownBy(() -> folders.inTree("docs", Arrays.asList("A", null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has the segment null");
        assertThatThrownBy(() -> folders.inTree("docs", List.of("A", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has the segment \" \"");
        assertThatThrownBy(() -> folders.inTree(null, List.of("A")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("@DistributedLock tree of")
                .hasMessageContaining("Folders.inTree(String, List)")
                .hasMessageContaining("expression \"#tree\" over the parameters [0: String tree, 1: List segments]")
                .hasMessageContaining("evaluated to null");
        assertThatThrownBy(() -> folders.inTree(" ", List.of("A")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank tree name");
        assertThatThrownBy(() -> folders.inTree("{docs}", List.of("A")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tree of")
                .hasMessageContaining("must not contain '{' or '}'")
                .hasMessageContaining("the method did not run");
        assertThatThrownBy(() -> folders.numberAsPath(project, 7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("evaluated to a java.lang.Integer")
                .hasMessageContaining("collection or array of segments");

        assertThat(folders.runs()).isEqualTo(before);
    }

    @Test
    void mistakesInTheAnnotationFailStartUpNamingTheProblem() {
        assertStartupFails(
                TreeWithoutPath.class,
                "TreeWithoutPath.edit(String)",
                "tree \"'docs'\" is set but path is not; set both",
                "path = \"''\" locks the whole tree");
        assertStartupFails(
                PathWithoutTree.class,
                "PathWithoutTree.edit(String)",
                "path \"#folder\" is set but tree is not; set both",
                "tree = \"'project:' + #projectId\"");
        assertStartupFails(
                TreeWithKey.class,
                "TreeWithKey.edit(String)",
                "set tree and path, or key or keys, not both",
                "key is \"#folder\"",
                "use tree and path to lock a path");
        assertStartupFails(TreeWithKeys.class, "set tree and path, or key or keys, not both", "keys are [#folder]");
        assertStartupFails(
                TreeWithFair.class, "TreeWithFair.edit(String)", "fair cannot be combined with tree and path");
        assertStartupFails(
                TreeWithRead.class, "TreeWithRead.edit(String)", "read cannot be combined with tree and path");
        assertStartupFails(
                UnknownParameterInTree.class,
                "UnknownParameterInTree.edit(String)",
                "tree \"'project:' + #projectId\" refers to #projectId, which is not a parameter",
                "[folder]");
        assertStartupFails(
                UnknownParameterInPath.class,
                "UnknownParameterInPath.edit(String)",
                "path \"#folders\" refers to #folders, which is not a parameter",
                "[folder]");
        assertStartupFails(BlankPath.class, "path must be a SpEL expression such as \"#folder\"", "but was blank");
        assertStartupFails(MissingBeanInTree.class, "tree \"@trees.name()\" refers to bean @trees");
    }

    @Test
    void aLockWithoutPathLocksFailsStartUpNamingTheMethods() {
        DistlockContexts.onSharedRedis()
                .withBean(TreeJob.class)
                .withPropertyValues(
                        "distlock.redlock.nodes[0].url=redis://localhost:" + FreePorts.next(),
                        "distlock.redlock.nodes[1].url=redis://localhost:" + FreePorts.next(),
                        "distlock.redlock.nodes[2].url=redis://localhost:" + FreePorts.next())
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContaining("@DistributedLock(tree = ..., path = ...) methods cannot run, because the"
                                + " Lock bean")
                        .hasMessageContaining("Redlock[prefix=distlock:] has no path lock")
                        .hasMessageContaining("TreeJob.run(String)")
                        .hasMessageContaining("choose a backend that offers the path lock"));
    }

    private LockHandle holdElsewhere(String tree, String path) throws Exception {
        return CompletableFuture.supplyAsync(() ->
                        lock.tree("project:" + tree).tryAcquire(path, LONG).orElseThrow())
                .get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }

    private static void assertStartupFails(Class<?> bean, String... messageParts) {
        ApplicationContextRunner runner = DistlockContexts.onSharedRedis();
        runner.withBean(bean).run(context -> {
            assertThat(context).hasFailed();
            for (String part : messageParts) {
                assertThat(context.getStartupFailure()).as(bean.getSimpleName()).hasStackTraceContaining(part);
            }
        });
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Folders folders() {
            return new Folders();
        }

        @Bean
        Projects projects(Folders folders) {
            return new Projects(folders);
        }
    }

    static class Folders {

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return runs.get();
        }

        @DistributedLock(tree = "'project:' + #projectId", path = "#folder", leaseSeconds = 30, waitSeconds = 0)
        public String edit(String projectId, String folder) {
            runs.incrementAndGet();
            return "edited " + folder;
        }

        @DistributedLock(tree = "'project:' + #projectId", path = "#folder", leaseSeconds = 30, waitSeconds = 10)
        public String editWaiting(String projectId, String folder) {
            runs.incrementAndGet();
            return "edited " + folder;
        }

        /** Holds the path until told to leave; returns the held handle's key. */
        @DistributedLock(tree = "'project:' + #projectId", path = "#folder", leaseSeconds = 30, waitSeconds = 10)
        public String holdUntil(String projectId, String folder, CountDownLatch entered, CountDownLatch leave) {
            runs.incrementAndGet();
            entered.countDown();
            try {
                assertThat(leave.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return LockContext.current().orElseThrow().key();
        }

        @DistributedLock(tree = "'project:' + #projectId", path = "#folders", waitSeconds = 0)
        public String editSegments(String projectId, List<String> folders) {
            runs.incrementAndGet();
            return LockContext.current().orElseThrow().key();
        }

        @DistributedLock(tree = "'project:' + #projectId", path = "#folders", waitSeconds = 0)
        public String editArray(String projectId, String[] folders) {
            runs.incrementAndGet();
            return LockContext.current().orElseThrow().key();
        }

        @DistributedLock(tree = "'project:' + #projectId", path = "#folder", waitSeconds = 0, fallback = "skip")
        public String editOrSkip(String projectId, String folder) {
            runs.incrementAndGet();
            return "edited " + folder;
        }

        public String skip(String projectId, String folder, LockNotAcquiredException notAcquired) {
            return "skipped: " + notAcquired.getMessage();
        }

        @DistributedLock(tree = "#tree", path = "#segments", waitSeconds = 0)
        public String inTree(String tree, List<String> segments) {
            runs.incrementAndGet();
            return "ran";
        }

        @DistributedLock(tree = "'project:' + #projectId", path = "#number", waitSeconds = 0)
        public String numberAsPath(String projectId, int number) {
            runs.incrementAndGet();
            return "ran";
        }

        /** The fencing token of the hold this call runs under. */
        @DistributedLock(tree = "'project:' + #projectId", path = "#folder", leaseSeconds = 30, waitSeconds = 0)
        public long token(String projectId, String folder) {
            return LockContext.current().orElseThrow().fencingToken();
        }
    }

    /** Calls into {@link Folders} while holding an ancestor of the folders it edits. */
    static class Projects {

        private final Folders folders;

        Projects(Folders folders) {
            this.folders = folders;
        }

        /** Holds {@code A}, then calls on {@code A} and {@code A/C}, which may not wait; returns the three tokens. */
        @DistributedLock(tree = "'project:' + #projectId", path = "'A'", leaseSeconds = 30, waitSeconds = 0)
        public long[] reorganize(String projectId) {
            long outer = LockContext.current().orElseThrow().fencingToken();
            return new long[] {outer, folders.token(projectId, "A"), folders.token(projectId, "A/C")};
        }
    }

    public static class TreeJob {
        @DistributedLock(tree = "'docs'", path = "#folder")
        public String run(String folder) {
            return folder;
        }
    }

    public static class TreeWithoutPath {
        @DistributedLock(tree = "'docs'")
        public String edit(String folder) {
            return folder;
        }
    }

    public static class PathWithoutTree {
        @DistributedLock(path = "#folder")
        public String edit(String folder) {
            return folder;
        }
    }

    public static class TreeWithKey {
        @DistributedLock(tree = "'docs'", path = "#folder", key = "#folder")
        public String edit(String folder) {
            return folder;
        }
    }

    public static class TreeWithKeys {
        @DistributedLock(tree = "'docs'", path = "#folder", keys = "#folder")
        public String edit(String folder) {
            return folder;
        }
    }

    public static class TreeWithFair {
        @DistributedLock(tree = "'docs'", path = "#folder", fair = true)
        public String edit(String folder) {
            return folder;
        }
    }

    public static class TreeWithRead {
        @DistributedLock(tree = "'docs'", path = "#folder", read = true)
        public String edit(String folder) {
            return folder;
        }
    }

    public static class UnknownParameterInTree {
        @DistributedLock(tree = "'project:' + #projectId", path = "#folder")
        public String edit(String folder) {
            return folder;
        }
    }

    public static class UnknownParameterInPath {
        @DistributedLock(tree = "'docs'", path = "#folders")
        public String edit(String folder) {
            return folder;
        }
    }

    public static class BlankPath {
        @DistributedLock(tree = "'docs'", path = " ")
        public String edit(String folder) {
            return folder;
        }
    }

    public static class MissingBeanInTree {
        @DistributedLock(tree = "@trees.name()", path = "#folder")
        public String edit(String folder) {
            return folder;
        }
    }
}
