package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.tck.net.TcpProxy;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/** The store outages of the Redis contract tests, for {@link io.distlock.tck.contract.StoreOutageContract}. */
final class ContractOutages implements AutoCloseable {

    private final AutoCloseables opened = new AutoCloseables();

    /**
     * A client of the server through a proxy that the outage pauses: connections stay open and nothing gets through,
     * as with a hung server, while the test's other clients still reach the shared server.
     *
     * @param server the server, shared with other test classes, which must keep answering them
     * @param lock makes the client's lock from clients of the proxy (the plain, fair or path lock)
     */
    StoreOutage proxied(TestRedis server, Function<RedisClients, Lock> lock) {
        TcpProxy proxy = opened.add(TcpProxy.start(server.host(), server.port()));
        RedisClients clients = opened.add(new RedisClients("127.0.0.1", proxy.port(), server.password()));
        return outage(lock.apply(clients), proxy::pause, proxy::resume);
    }

    /**
     * The outage pauses every server (SIGSTOP) and resumes them, which then answer the commands that waited.
     *
     * @param servers the servers of the test class
     * @param client a client of them
     * @param afterResume waits until they serve again
     */
    static StoreOutage paused(List<TestRedis> servers, Lock client, Runnable afterResume) {
        return outage(client, () -> servers.forEach(TestRedis::pause), () -> {
            servers.forEach(TestRedis::resume);
            afterResume.run();
        });
    }

    private static StoreOutage outage(Lock client, Runnable begin, Runnable end) {
        return new StoreOutage() {
            @Override
            public Lock client() {
                return client;
            }

            @Override
            public void begin() {
                begin.run();
            }

            @Override
            public Duration callTimeout() {
                return RedisClients.COMMAND_TIMEOUT;
            }

            @Override
            public void close() {
                end.run();
            }
        };
    }

    /** Closes the proxies and clients made for outages, newest first. */
    @Override
    public void close() throws Exception {
        opened.close();
    }

    /** What the outages opened. */
    private static final class AutoCloseables implements AutoCloseable {

        private final java.util.Deque<AutoCloseable> opened = new java.util.ArrayDeque<>();

        synchronized <T extends AutoCloseable> T add(T resource) {
            opened.push(resource);
            return resource;
        }

        @Override
        public synchronized void close() throws Exception {
            while (!opened.isEmpty()) {
                opened.pop().close();
            }
        }
    }
}
