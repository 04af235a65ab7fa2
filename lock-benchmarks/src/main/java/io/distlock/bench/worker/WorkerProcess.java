package io.distlock.bench.worker;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.ContenderTarget;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The parent's handle on one worker JVM, started with this JVM's classpath; its log goes to a file. */
final class WorkerProcess implements AutoCloseable {

    private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final Path log;

    private WorkerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.commands = process.outputWriter(StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readAnswers, name + "-answers");
        reader.setDaemon(true);
        reader.start();
    }

    static WorkerProcess start(
            ContenderKind kind, int number, ContenderTarget target, List<String> jvmArgs, Path logDirectory) {
        String name = kind.id() + "-" + number;
        Path log = logDirectory.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(WorkerMain.class.getName());
        command.add(kind.id());
        command.addAll(target.arguments());
        try {
            Files.createDirectories(logDirectory);
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
                    .start();
            return new WorkerProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start worker " + name, e);
        }
    }

    void awaitReady(Duration timeout) throws InterruptedException {
        String answer = awaitAnswer(timeout, "start");
        if (!answer.equals(WorkerProtocol.READY)) {
            throw failure("answered '" + answer + "' instead of starting");
        }
    }

    void send(Workload workload) {
        try {
            commands.write(WorkerProtocol.RUN + workload.encode() + "\n");
            commands.flush();
        } catch (IOException e) {
            throw failure("did not take its workload: " + e);
        }
    }

    WorkloadResult awaitResult(Duration timeout) throws InterruptedException {
        String answer = awaitAnswer(timeout, "finish its workload");
        if (!answer.startsWith(WorkerProtocol.RESULT)) {
            throw failure("answered '" + answer + "' instead of a result");
        }
        return WorkloadResult.decode(answer.substring(WorkerProtocol.RESULT.length()));
    }

    @Override
    public void close() {
        try {
            commands.write(WorkerProtocol.EXIT + "\n");
            commands.close();
        } catch (IOException e) {
            // The worker is gone already; nothing left to tell it.
        }
        try {
            if (!process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private String awaitAnswer(Duration timeout, String what) throws InterruptedException {
        String answer = answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (answer == null) {
            throw failure("did not " + what + " within " + timeout);
        }
        if (answer.startsWith(WorkerProtocol.ERROR)) {
            throw failure("failed: " + WireFields.untext(answer.substring(WorkerProtocol.ERROR.length())));
        }
        if (answer.equals(WorkerProtocol.ENDED)) {
            throw failure("exited before it could " + what);
        }
        return answer;
    }

    private void readAnswers() {
        try (BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null) {
                if (line.startsWith(WorkerProtocol.ANSWER)) {
                    answers.add(line);
                }
            }
        } catch (IOException e) {
            // The pipe broke because the worker died; the ENDED answer below reports it.
        }
        answers.add(WorkerProtocol.ENDED);
    }

    private WorkerFailedException failure(String what) {
        return new WorkerFailedException(
                what, "Worker " + name + " " + what + "; its log " + log + " ends with:\n" + logTail());
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
