package dev.loadlens.truth

import org.springframework.boot.context.properties.ConfigurationProperties

/** The `truth.*` properties: where the pricing service is, the seed's sizes and the faults. */
@ConfigurationProperties("truth")
data class TruthProperties(
    val externalUrl: String = "http://127.0.0.1:18081",
    val seed: Seed = Seed(),
    val fault: Fault = Fault(),
    /** At most this many requests under /apps/ in flight, the rest answered 503 at once; 0 is off. */
    val bulkhead: Int = 0,
    /** SHA-256 rounds over the rendered page: sets /apps/{id}/render's CPU (about 2 ms at the default). */
    val renderRounds: Int = 500,
    /** Rows of /apps/{id}/export's object graph (about 2 MB allocated at the default). */
    val exportRows: Int = 3100,
) {
    /** Row counts of the seed; a table with fewer rows is topped up at start. */
    data class Seed(val apps: Int = 2000, val reviews: Int = 200_000, val authors: Int = 10_000)

    /** The catalogue's faults, all off by default. */
    data class Fault(
        /** /apps/{id}/reviews holds its connection this long inside its transaction. */
        val holdMs: Long = 0,
        /** Drop review(app_id, created_at): /apps/{id}/reviews scans the table. */
        val missingIndex: Boolean = false,
        /** /apps/{id}/reviews loads each review's author lazily: 1 + 20 statements. */
        val nPlusOne: Boolean = false,
        /** /apps/{id}'s cache key carries a per-request value, so the cache never hits. */
        val cacheMiss: Boolean = false,
        /** Every request under /apps/ answers after slowdown × its own service time. */
        val slowdown: Double = 1.0,
    )

    /** The faults that are on, for the start-up log line. */
    fun faultsOn(poolSize: Int): List<String> = buildList {
        if (fault.holdMs > 0) add("hold-ms=${fault.holdMs} (pool $poolSize)")
        if (fault.missingIndex) add("missing-index")
        if (fault.nPlusOne) add("n-plus-one")
        if (fault.cacheMiss) add("cache-miss")
        if (fault.slowdown != 1.0) add("slowdown=${fault.slowdown}")
        if (bulkhead > 0) add("bulkhead=$bulkhead")
    }
}
