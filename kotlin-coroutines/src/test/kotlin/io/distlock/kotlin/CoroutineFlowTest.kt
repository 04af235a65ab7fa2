package io.distlock.kotlin

import io.distlock.Lock
import io.distlock.test.redis.TestRedis
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Import
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import java.time.Duration
import java.util.UUID
import java.util.concurrent.TimeUnit

/** A suspend function returning a `Flow`: the lock is taken when the Flow is collected and held until it ends. */
@SpringBootTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoroutineFlowTest {
    @Autowired
    private lateinit var locked: LockedWork

    @Autowired
    private lateinit var lock: Lock

    private val id = UUID.randomUUID().toString()
    private val key = "kt:$id"

    @Test
    fun flowOfASuspendFunctionHoldsTheLockUntilItCompletes() =
        bounded {
            val second = CompletableDeferred<Unit>()
            val numbers = locked.numbers(id, second)
            assertThat(lock.isFree(key)).describedAs("taken before the Flow is collected").isTrue()

            val received = Channel<Int>(Channel.UNLIMITED)
            val collecting = async(Dispatchers.Default) { numbers.collect { received.send(it) } }
            assertThat(received.receive()).isEqualTo(1)
            assertThat(lock.isFree(key)).describedAs("free while the Flow is collected").isFalse()

            second.complete(Unit)
            assertThat(received.receive()).isEqualTo(2)
            collecting.await()
            assertThat(lock.isFree(key)).isTrue()
        }

    @Test
    fun collectingOnlyPartOfTheFlowReleasesTheLock() =
        bounded {
            val first = locked.numbers(id, CompletableDeferred()).take(1).toList()

            assertThat(first).containsExactly(1)
            await().atMost(Duration.ofSeconds(5)).until { lock.isFree(key) }
        }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(LockedWork::class)
    class Application

    companion object {
        @JvmStatic
        @DynamicPropertySource
        fun redis(registry: DynamicPropertyRegistry) {
            registry.add("spring.data.redis.port") { TestRedis.shared().port() }
        }
    }
}
