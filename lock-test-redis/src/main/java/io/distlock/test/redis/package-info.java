/**
 * Throwaway, real Redis servers and a fault-injecting TCP proxy for the tests of this project.
 *
 * <p>{@link io.distlock.test.redis.TestRedis} starts a {@code redis-server} on a free loopback port (never 6379) from
 * Testcontainers, the {@code PATH} or the binaries bundled in {@code embedded-redis}; {@link
 * io.distlock.test.redis.TestRedisCluster} forms a Redis Cluster of such servers, and {@link
 * io.distlock.test.redis.TestRedisSentinel} a primary, two replicas and three Sentinels; {@link io.distlock.tck.net.TcpProxy}
 * sits between a client and a server to pause, slow down or cut the connection. A server can also listen for TLS, with
 * a throwaway CA and certificates from {@link io.distlock.test.redis.TestCertificates}. This library is for tests only and
 * must never become a runtime dependency.
 */
package io.distlock.test.redis;
