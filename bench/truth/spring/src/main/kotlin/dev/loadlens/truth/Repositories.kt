package dev.loadlens.truth

import org.springframework.data.domain.Pageable
import org.springframework.data.jpa.repository.JpaRepository
import org.springframework.data.jpa.repository.Query

/** Apps by id, and the heavy ranking of GET /apps/top. */
interface AppRepository : JpaRepository<App, Long> {
    /** Case study 1's join: every review of the category's apps is read and grouped, per request. */
    @Query(
        nativeQuery = true,
        value = """
            select a.id as id, a.name as name, cast(avg(r.rating) as double precision) as averageRating,
                   count(r.id) as reviews
            from app a left join review r on r.app_id = a.id
            where a.category = :category
            group by a.id, a.name
            order by avg(r.rating) desc nulls last, a.id
            limit 20""",
    )
    fun top(category: String): List<TopApp>
}

/** Reviews of one app, newest first. */
interface ReviewRepository : JpaRepository<Review, Long> {
    /** The healthy path: one statement, the authors joined in. */
    @Query(
        "select new dev.loadlens.truth.ReviewView(r.id, r.rating, r.body, r.createdAt, a.name) " +
            "from Review r join r.author a where r.appId = :appId order by r.createdAt desc",
    )
    fun newestWithAuthor(appId: Long, page: Pageable): List<ReviewView>

    /** The N+1 path: the reviews alone; each author is loaded when it is read. */
    @Query("select r from Review r where r.appId = :appId order by r.createdAt desc")
    fun newest(appId: Long, page: Pageable): List<Review>

    /** What GET /apps/{id} adds to the app (uses the review(app_id, …) index). */
    @Query("select count(r) as count, cast(avg(r.rating) as double) as average from Review r where r.appId = :appId")
    fun stats(appId: Long): ReviewStats
}
