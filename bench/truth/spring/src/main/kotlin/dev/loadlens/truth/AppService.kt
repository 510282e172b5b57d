package dev.loadlens.truth

import org.springframework.cache.annotation.Cacheable
import org.springframework.data.domain.PageRequest
import org.springframework.http.HttpStatus
import org.springframework.stereotype.Service
import org.springframework.transaction.annotation.Transactional
import org.springframework.web.server.ResponseStatusException

/** The database-backed endpoints. Open by hand: Spring subclasses it for @Cacheable and @Transactional. */
@Service
open class AppService(
    private val apps: AppRepository,
    private val reviews: ReviewRepository,
    private val props: TruthProperties,
) {
    /** The app with its review count and mean rating; [nonce] is part of the key only under the cache-miss fault. */
    @Cacheable(cacheNames = ["apps"], key = "#p1 == null ? #p0 : #p0 + ':' + #p1")
    open fun summary(id: Long, nonce: Long?): AppSummary {
        val app = apps.findById(id).orElseThrow { ResponseStatusException(HttpStatus.NOT_FOUND, "no app $id") }
        val stats = reviews.stats(id)
        return AppSummary(app.id, app.name, app.category, app.priceCents, stats.count, stats.average)
    }

    /** The 20 newest reviews with their authors' names: one statement, or 1 + 20 under the N+1 fault. */
    @Transactional(readOnly = true)
    open fun newestReviews(appId: Long): List<ReviewView> {
        val page = PageRequest.of(0, REVIEWS_PAGE)
        val views = if (props.fault.nPlusOne) {
            reviews.newest(appId, page).map { ReviewView(it.id, it.rating, it.body, it.createdAt, it.author!!.name) }
        } else {
            reviews.newestWithAuthor(appId, page)
        }
        // The pool fault: the connection stays taken while the request does other work.
        if (props.fault.holdMs > 0) Thread.sleep(props.fault.holdMs)
        return views
    }

    /** The 20 best-rated apps of a category, computed from every review on every call. */
    @Transactional(readOnly = true)
    open fun top(category: String): List<TopApp> = apps.top(category)

    private companion object {
        const val REVIEWS_PAGE = 20
    }
}
