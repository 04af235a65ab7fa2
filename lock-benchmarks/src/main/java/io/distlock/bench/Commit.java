package io.distlock.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The commit a run measured, so that every figure it writes names the code it came from. */
public final class Commit {

    private Commit() {}

    /**
     * The checkout's commit, as {@code git} abbreviates it, marked when the working tree differs from it.
     *
     * @return for example {@code b415d79}, {@code b415d79 with uncommitted changes}, or {@code unknown} outside a git
     *     checkout
     */
    public static String current() {
        String head = git("rev-parse", "--short", "HEAD");
        if (head.isEmpty()) {
            return "unknown";
        }
        return git("status", "--porcelain", "--untracked-files=no").isEmpty()
                ? head
                : head + " with uncommitted changes";
    }

    private static String git(String... args) {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        try {
            Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            boolean ended = git.waitFor(10, TimeUnit.SECONDS);
            return ended && git.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
