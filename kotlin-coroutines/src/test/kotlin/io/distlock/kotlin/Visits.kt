package io.distlock.kotlin

import kotlinx.coroutines.CompletableDeferred
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger

/** One call of a method body, driven by the test: the body records entering, waits for [release], then leaves. */
class Visit {
    val entered = CompletableDeferred<Unit>()
    val release = CompletableDeferred<Unit>()

    /** Completes with how the body ended: null when it returned, or what it threw (a cancellation too). */
    val exited = CompletableDeferred<Throwable?>()

    companion object {
        /** A visit whose body goes straight through. */
        fun released() = Visit().also { it.release.complete(Unit) }
    }
}

/** How many bodies run at once for each id, and the most that ever did. */
class Occupancy {
    private val inside = ConcurrentHashMap<String, AtomicInteger>()
    private val most = ConcurrentHashMap<String, AtomicInteger>()

    fun most(id: String): Int = most[id]?.get() ?: 0

    suspend fun <T> visit(
        id: String,
        visit: Visit,
        work: suspend () -> T,
    ): T {
        val now = inside.computeIfAbsent(id) { AtomicInteger() }.incrementAndGet()
        most.computeIfAbsent(id) { AtomicInteger() }.accumulateAndGet(now, ::maxOf)
        visit.entered.complete(Unit)
        try {
            visit.release.await()
            return work().also { visit.exited.complete(null) }
        } catch (e: Throwable) {
            visit.exited.complete(e)
            throw e
        } finally {
            inside.getValue(id).decrementAndGet()
        }
    }
}
