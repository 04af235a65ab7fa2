package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.autoconfigure.internal.SecretPropertyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;

/** A Redlock node's URL, as Lettuce's RedisURI reads it, with the node's own login and TLS settings. */
class RedlockNodeTest {

    private static final String NODE = "distlock.redlock.nodes[1]";

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "redis://redis-a                 | redis-a   | 6379 | 0 | -     | -         | false",
                "redis://redis-a:6380/3          | redis-a   | 6380 | 3 | -     | -         | false",
                "redis://:secret@redis-a         | redis-a   | 6379 | 0 | -     | secret    | false",
                "redis://secret@redis-a          | redis-a   | 6379 | 0 | -     | secret    | false",
                "redis://app:p%40ss+w@redis-a/2  | redis-a   | 6379 | 2 | app   | p@ss+w    | false",
                "rediss://app:secret@redis-c:6390 | redis-c  | 6390 | 0 | app   | secret    | true",
                "' redis://10.0.0.7:7000/1 '     | 10.0.0.7  | 7000 | 1 | -     | -         | false"
            })
    void readsWhatTheReadmeDocuments(
            String url, String host, int port, int database, String username, String password, boolean ssl) {
        RedlockNode node = RedlockNode.of(NODE, node(url));

        RedisStandaloneConfiguration server = node.server();
        assertThat(server.getHostName()).isEqualTo(host);
        assertThat(server.getPort()).isEqualTo(port);
        assertThat(server.getDatabase()).isEqualTo(database);
        assertThat(server.getUsername()).isEqualTo(username);
        assertThat(server.getPassword().map(String::new).orElse(null)).isEqualTo(password);
        assertThat(node.ssl()).isEqualTo(ssl);
        assertThat(node.toString()).doesNotContain("secret").doesNotContain("p@ss");
    }

    @Test
    void theNodesOwnLoginTakesThePlaceOfTheUrls() {
        RedlockProperties.Node settings = node("redis://app:from-url@redis-a");
        settings.setUsername("locks");
        settings.setPassword("from-property");

        RedisStandaloneConfiguration server = RedlockNode.of(NODE, settings).server();

        assertThat(server.getUsername()).isEqualTo("locks");
        assertThat(server.getPassword().map(String::new)).contains("from-property");
    }

    @Test
    void anSslBundleMeansTlsUnlessSwitchedOff() {
        RedlockProperties.Node settings = node("redis://redis-a");
        settings.getSsl().setBundle("nodes");
        assertThat(RedlockNode.of(NODE, settings).ssl()).isTrue();
        assertThat(RedlockNode.of(NODE, settings).sslBundle()).isEqualTo("nodes");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://redis-a:6379          | the scheme must be redis or rediss",
                "redis-sentinel://redis-a     | the scheme must be redis or rediss",
                "redis-socket:///tmp/redis    | the scheme must be redis or rediss",
                "redis://:secret@:6379        | it names no host, or its port is not a number",
                "redis://redis-a:port         | it names no host, or its port is not a number",
                "redis://redis-a:99999        | Port out of range",
                "redis://redis-a/first        | its path must be a database number, such as /0",
                "redis://redis-a/-1           | Invalid database number",
                "redis://redis a              | Illegal character",
                "redis://redis-a?timeout=5s   | query parameters and fragments are not read",
                "redis://:secret@redis-a#x    | query parameters and fragments are not read"
            })
    void refusesAnythingElseNamingTheNodeAndWhatIsAllowed(String url, String why) {
        assertThatThrownBy(() -> RedlockNode.of(NODE, node(url)))
                .isInstanceOf(SecretPropertyException.class)
                .hasMessageContaining(NODE + ".url")
                .hasMessageContaining("must be redis://[[user]:password@]host[:port][/database] or rediss://...")
                .hasMessageContaining(why)
                .hasMessageNotContaining("secret");
    }

    /**
     * Passwords that generated tokens often have: with {@code /}, <code>{</code>, {@code @} or a space, the URL cannot
     * be read, or is read wrongly, and no part of the password is shown, whatever the error.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "redis://:pa/ss{ word@redis-a:6379",
                "redis://app:pa/ss{ word@redis-a",
                "redis://:pa/ss@redis-a",
                "redis://app:pa{ss@redis-a",
                "redis://:pass word@redis-a/1",
                "redis://app:pa@ss/word@redis-a",
                "redis://:pa/ss@redis-a?timeout=5s"
            })
    void aUrlWithAPasswordOfReservedCharactersIsRefusedFullyMasked(String url) {
        assertThatThrownBy(() -> RedlockNode.of(NODE, node(url)))
                .isInstanceOfSatisfying(
                        SecretPropertyException.class,
                        refused -> assertThat(refused.getMaskedValue()).startsWith("redis://******@"))
                .hasMessageContaining(NODE + ".url")
                .hasMessageNotContaining("pa/")
                .hasMessageNotContaining("ss{")
                .hasMessageNotContaining("ss word")
                .hasMessageNotContaining("pa{ss")
                .hasMessageNotContaining("/word");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis://:pa/ss{ w@redis-a:6379 | redis://******@redis-a:6379",
                "redis://app:p@ss@redis-a/2     | redis://******@redis-a/2",
                "redis://redis-a:6379           | redis://redis-a:6379",
                "user:secret@redis-a            | ******@redis-a"
            })
    void aMaskedUrlShowsNothingBetweenItsSchemeAndItsLastAt(String url, String masked) {
        assertThat(RedlockNode.masked(url)).isEqualTo(masked);
    }

    @Test
    void aUsernameNeedsAPassword() {
        RedlockProperties.Node settings = node("redis://redis-a");
        settings.setUsername("app");
        assertThatThrownBy(() -> RedlockNode.of(NODE, settings))
                .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                .hasMessageContaining(NODE + ".username")
                .hasMessageContaining("needs a password");
    }

    @Test
    void theSameHostPortAndDatabaseAreTheSameServerWhateverTheCase() {
        RedlockNode first = RedlockNode.of(NODE, node("redis://redis-a:7001"));
        assertThat(RedlockNode.of(NODE, node("redis://REDIS-A:7001/0")).sameServer(first))
                .isTrue();
        assertThat(RedlockNode.of(NODE, node("redis://redis-a:7001/1")).sameServer(first))
                .isFalse();
        assertThat(RedlockNode.of(NODE, node("redis://redis-a:7002")).sameServer(first))
                .isFalse();
    }

    private static RedlockProperties.Node node(String url) {
        RedlockProperties.Node node = new RedlockProperties.Node();
        node.setUrl(url);
        return node;
    }
}
