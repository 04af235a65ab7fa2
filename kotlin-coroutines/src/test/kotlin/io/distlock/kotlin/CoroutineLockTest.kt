package io.distlock.kotlin

import io.distlock.Lock
import io.distlock.LockLostException
import io.distlock.LockNotAcquiredException
import io.distlock.test.redis.TestRedis
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.withTimeoutOrNull
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
import kotlin.time.Duration.Companion.milliseconds

/**
 * `@DistributedLock` on suspend functions, against a real Redis: the lock is held while the coroutine is suspended,
 * and released when it returns, throws or is cancelled.
 */
@SpringBootTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoroutineLockTest {
    @Autowired
    private lateinit var locked: LockedWork

    @Autowired
    private lateinit var unlocked: UnlockedWork

    @Autowired
    private lateinit var nested: NestedWork

    @Autowired
    private lateinit var lock: Lock

    private val id = UUID.randomUUID().toString()
    private val key = "kt:$id"

    @Test
    fun secondCallerWaitsWhileFirstIsSuspended() =
        bounded {
            val first = Visit()
            val second = Visit()
            val firstCall = async(Dispatchers.Default) { locked.work(id, first) }
            first.entered.await()
            val secondCall = async(Dispatchers.Default) { locked.work(id, second) }

            assertThat(withTimeoutOrNull(500.milliseconds) { second.entered.await() })
                .describedAs("the second caller entered the body while the first held the lock, suspended")
                .isNull()

            first.release.complete(Unit)
            assertThat(firstCall.await()).isEqualTo("done $id")
            second.entered.await()
            second.release.complete(Unit)
            assertThat(secondCall.await()).isEqualTo("done $id")
            assertThat(locked.occupancy.most(id)).isOne()
        }

    @Test
    fun withoutTheLockSecondCallerEntersWhileFirstIsSuspended() =
        bounded {
            val first = Visit()
            val second = Visit()
            val firstCall = async(Dispatchers.Default) { unlocked.work(id, first) }
            first.entered.await()
            val secondCall = async(Dispatchers.Default) { unlocked.work(id, second) }

            second.entered.await()
            assertThat(unlocked.occupancy.most(id)).isEqualTo(2)

            first.release.complete(Unit)
            second.release.complete(Unit)
            firstCall.await()
            secondCall.await()
        }

    @Test
    fun secondCallerWithAShortWaitIsRefusedWhileFirstIsSuspended() =
        bounded {
            val first = Visit()
            val firstCall = async(Dispatchers.Default) { locked.work(id, first) }
            first.entered.await()
            val second = Visit.released()

            val refused = runCatching { locked.tryWork(id, second) }.exceptionOrNull()

            assertThat(refused).isInstanceOfSatisfying(LockNotAcquiredException::class.java) { e ->
                assertThat(e.key()).isEqualTo(key)
            }
            assertThat(second.entered.isCompleted).isFalse()
            first.release.complete(Unit)
            firstCall.await()
        }

    @Test
    fun lockIsHeldWhileSuspendedAndReleasedWhenTheCoroutineCompletes() =
        bounded {
            val first = Visit()
            val firstCall = async(Dispatchers.Default) { locked.work(id, first) }
            first.entered.await()
            assertThat(lock.isFree(key)).isFalse()

            first.release.complete(Unit)
            firstCall.await()

            assertThat(lock.isFree(key)).isTrue()
            assertThat(locked.tryWork(id, Visit.released())).isEqualTo("tried $id")
        }

    @Test
    fun lockIsReleasedAsSoonAsASuspendFunctionThatDelaysReturns() =
        bounded {
            locked.pause(id)

            assertThat(lock.isFree(key)).isTrue()
        }

    @Test
    fun exceptionInsideTheSuspendFunctionReleasesTheLockAndReachesTheCaller() =
        bounded {
            val visit = Visit.released()

            val thrown = runCatching { locked.fail(id, visit) }.exceptionOrNull()

            assertThat(thrown).isInstanceOf(IllegalStateException::class.java).hasMessage("out of stock $id")
            assertThat(visit.exited.await()).isInstanceOf(IllegalStateException::class.java)
            assertThat(lock.isFree(key)).isTrue()
        }

    @Test
    fun cancellingTheCallingCoroutineCancelsTheBodyAndReleasesTheLock() =
        bounded {
            val visit = Visit()
            val call = launch(Dispatchers.Default) { locked.work(id, visit) }
            visit.entered.await()
            assertThat(lock.isFree(key)).isFalse()

            call.cancelAndJoin()

            assertThat(visit.exited.await()).isInstanceOf(CancellationException::class.java)
            await().atMost(Duration.ofSeconds(5)).until { lock.isFree(key) }
        }

    @Test
    fun aLeaseLostWhileSuspendedCancelsTheBodyAndThrowsLockLost() =
        bounded {
            val visit = Visit()

            val thrown = runCatching { locked.underShortLease(id, visit) }.exceptionOrNull()

            assertThat(thrown).isInstanceOfSatisfying(LockLostException::class.java) { e ->
                assertThat(e.key()).isEqualTo(key)
            }
            assertThat(visit.exited.await()).isInstanceOf(CancellationException::class.java)
        }

    @Test
    fun theHandleIsInTheCoroutinesReactorContext() =
        bounded {
            assertThat(locked.fencingToken(id)).isPositive()
        }

    @Test
    fun aNestedCallOnTheSameKeyRunsUnderTheOuterHold() =
        bounded {
            val tokens = nested.outerAndInner(id)

            assertThat(tokens).hasSize(2)
            assertThat(tokens[1]).isEqualTo(tokens[0])
            assertThat(lock.isFree(key)).isTrue()
        }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(LockedWork::class, UnlockedWork::class, NestedWork::class)
    class Application

    companion object {
        @JvmStatic
        @DynamicPropertySource
        fun redis(registry: DynamicPropertyRegistry) {
            registry.add("spring.data.redis.port") { TestRedis.shared().port() }
        }
    }
}
