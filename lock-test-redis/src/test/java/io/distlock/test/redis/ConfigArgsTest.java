package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConfigArgsTest {

    @Test
    void splitsADirectiveIntoOneArgumentPerToken() {
        assertThat(ConfigArgs.of("user app on >pw ~{distlock:* +@all"))
                .containsExactly("--user", "app", "on", ">pw", "~{distlock:*", "+@all");
    }

    @Test
    void quotesGroupAndDisappear() {
        assertThat(ConfigArgs.of("save \"\"")).containsExactly("--save", "");
        assertThat(ConfigArgs.of("requirepass 'two words'")).containsExactly("--requirepass", "two words");
    }

    @Test
    void keepsAnExistingDashPrefix() {
        assertThat(ConfigArgs.of("--maxmemory 10mb")).containsExactly("--maxmemory", "10mb");
    }
}
