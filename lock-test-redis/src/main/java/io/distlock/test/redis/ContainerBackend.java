package io.distlock.test.redis;

import com.github.dockerjava.api.DockerClient;
import io.distlock.tck.net.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A Redis in a Docker container. The host port is fixed at creation, because Docker picks a new random port when a
 * container with a random mapping restarts, and {@link #startAgain()} must keep the port.
 */
final class ContainerBackend implements RedisBackend {

    private static final DockerImageName IMAGE = DockerImageName.parse("redis:7.4-alpine");
    private static final int REDIS_PORT = 6379;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int PORT_ATTEMPTS = 3;

    private final GenericContainer<?> container;
    private final int port;
    private boolean running = true;
    private boolean paused;
    private boolean stopped;

    private ContainerBackend(GenericContainer<?> container, int port) {
        this.container = container;
        this.port = port;
    }

    static ContainerBackend start(ServerOptions options) {
        for (int attempt = 1; ; attempt++) {
            int port = FreePorts.next();
            GenericContainer<?> container = new GenericContainer<>(IMAGE)
                    .withExposedPorts(REDIS_PORT)
                    .withCommand(command(options))
                    .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1));
            container.setPortBindings(List.of(port + ":" + REDIS_PORT));
            try {
                container.start();
                ContainerBackend backend = new ContainerBackend(container, port);
                backend.awaitPing();
                return backend;
            } catch (RuntimeException e) {
                try {
                    container.stop();
                } catch (RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
                if (!portTaken(e) || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String description() {
        return "redis-server from " + IMAGE.asCanonicalNameString() + " (Testcontainers) on port " + port;
    }

    @Override
    public synchronized void kill() {
        requireRunning();
        docker().killContainerCmd(container.getContainerId()).exec();
        running = false;
        paused = false;
        PortProbe.awaitClosed(host(), port, STOP_TIMEOUT);
    }

    @Override
    public synchronized void startAgain() {
        if (stopped || running) {
            throw new IllegalStateException(description() + " is " + (stopped ? "closed" : "still running"));
        }
        docker().startContainerCmd(container.getContainerId()).exec();
        running = true;
        awaitPing();
    }

    @Override
    public synchronized void pause() {
        requireRunning();
        docker().pauseContainerCmd(container.getContainerId()).exec();
        paused = true;
    }

    @Override
    public synchronized void resume() {
        requireRunning();
        docker().unpauseContainerCmd(container.getContainerId()).exec();
        paused = false;
    }

    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (paused) {
            // Some Docker versions refuse to stop a paused container, so thaw it first.
            docker().unpauseContainerCmd(container.getContainerId()).exec();
        }
        container.stop();
    }

    /** Docker's port forwarding may accept connections before Redis inside can answer them, so ask Redis itself. */
    private void awaitPing() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!PortProbe.answersPing(host(), port)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(description() + " did not answer PING within " + READY_TIMEOUT
                        + "; container log:\n" + container.getLogs());
            }
            PortProbe.sleepPollInterval();
        }
    }

    private DockerClient docker() {
        return container.getDockerClient();
    }

    private void requireRunning() {
        if (stopped || !running) {
            throw new IllegalStateException(description() + " is not running");
        }
    }

    /** The container's own port, bound on all its interfaces, since Docker forwards the host port to its IP. */
    private static String[] command(ServerOptions options) {
        List<String> command = new ArrayList<>(List.of(
                "redis-server",
                "--port",
                Integer.toString(REDIS_PORT),
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "no"));
        command.addAll(options.redisArgs());
        return command.toArray(String[]::new);
    }

    private static boolean portTaken(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = String.valueOf(cause.getMessage());
            if (message.contains("port is already allocated") || message.contains("address already in use")) {
                return true;
            }
        }
        return false;
    }
}
