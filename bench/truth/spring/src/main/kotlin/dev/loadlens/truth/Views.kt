package dev.loadlens.truth

import java.io.Serializable
import java.time.OffsetDateTime

/** GET /apps/{id}: cached in Redis (Java serialization, hence Serializable). */
data class AppSummary(
    val id: Long,
    val name: String,
    val category: String,
    val priceCents: Int,
    val reviews: Long,
    val averageRating: Double?,
) : Serializable

/** One review as GET /apps/{id}/reviews answers it. */
data class ReviewView(
    val id: Long,
    val rating: Int,
    val body: String,
    val createdAt: OffsetDateTime,
    val author: String,
)

/** One row of GET /apps/top (a native query's projection). */
interface TopApp {
    val id: Long
    val name: String
    val averageRating: Double?
    val reviews: Long
}

/** Count and mean rating of an app's reviews. */
interface ReviewStats {
    val count: Long
    val average: Double?
}

/** GET /apps/{id}/export: a digest of the object graph it built. */
data class ExportDigest(val appId: Long, val rows: Int, val bytes: Long, val digest: Long)

/** GET /apps/{id}/render: the page's size and hash. */
data class RenderResult(val appId: Long, val bytes: Int, val sha256: String)
