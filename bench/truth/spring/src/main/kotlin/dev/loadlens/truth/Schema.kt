package dev.loadlens.truth

import com.zaxxer.hikari.HikariDataSource
import org.slf4j.LoggerFactory
import org.springframework.beans.factory.InitializingBean
import org.springframework.stereotype.Component
import java.sql.Connection
import javax.sql.DataSource

/**
 * Creates the schema and seed when absent, and the review(app_id, created_at) index unless the
 * missing-index fault is on. It runs while the context starts, so Tomcat answers only once it is done.
 */
@Component
class Schema(private val dataSource: DataSource, private val props: TruthProperties) : InitializingBean {
    private val log = LoggerFactory.getLogger(Schema::class.java)

    override fun afterPropertiesSet() {
        val start = System.nanoTime()
        dataSource.connection.use { c ->
            c.autoCommit = true
            // One app at a time seeds: two started together on an empty database would collide.
            c.exec("select pg_advisory_lock($LOCK_ID)")
            try {
                DDL.forEach { c.exec(it) }
                val n = props.seed
                val added = topUp(c, "author", n.authors, AUTHORS, emptyList()) +
                    topUp(c, "app", n.apps, APPS, emptyList()) +
                    topUp(c, "review", n.reviews, REVIEWS, listOf(n.apps, n.apps, n.apps, n.authors))
                if (props.fault.missingIndex) c.exec("drop index if exists $INDEX") else c.exec(INDEX_DDL)
                if (added > 0) c.exec("vacuum analyze")
                log.info("schema ready in {} ms ({} rows added)", (System.nanoTime() - start) / 1_000_000, added)
            } finally {
                c.exec("select pg_advisory_unlock($LOCK_ID)")
            }
        }
        val pool = (dataSource as? HikariDataSource)?.maximumPoolSize ?: -1
        val faults = props.faultsOn(pool)
        log.info("truthapp faults: {}", if (faults.isEmpty()) "none" else faults.joinToString(", "))
    }

    /** Inserts ids count+1..want into [table] (the seed's ids are dense from 1); returns the rows added. */
    private fun topUp(c: Connection, table: String, want: Int, insert: String, args: List<Int>): Int {
        val have = c.createStatement().use { s ->
            s.executeQuery("select count(*) from $table").use { r -> r.next(); r.getInt(1) }
        }
        if (have >= want) return 0
        return c.prepareStatement(insert).use { ps ->
            (args + listOf(have + 1, want)).forEachIndexed { i, v -> ps.setInt(i + 1, v) }
            ps.executeUpdate()
        }
    }

    private fun Connection.exec(sql: String) {
        createStatement().use { it.execute(sql) }
    }

    private companion object {
        const val LOCK_ID = 20_2026
        const val INDEX = "review_app_created_idx"
        const val INDEX_DDL = "create index if not exists $INDEX on review (app_id, created_at)"

        val DDL = listOf(
            "create table if not exists author (id bigint primary key, name text not null)",
            """create table if not exists app (id bigint primary key, name text not null,
                category text not null, price_cents int not null, created_at timestamptz not null)""",
            """create table if not exists review (id bigint primary key,
                app_id bigint not null references app (id), author_id bigint not null references author (id),
                rating smallint not null check (rating between 1 and 5), body text not null,
                created_at timestamptz not null)""",
        )

        const val AUTHORS = """insert into author (id, name)
            select g, 'author ' || g from generate_series(?, ?) g on conflict (id) do nothing"""

        const val APPS = """insert into app (id, name, category, price_cents, created_at)
            select g, 'app ' || g, (array['GAME','EDU','SOCIAL','MUSIC','TOOLS'])[1 + g % 5],
                   99 + (g * 37) % 2000, timestamptz '2020-01-01 00:00:00+00' + g * interval '1 hour'
            from generate_series(?, ?) g on conflict (id) do nothing"""

        // Review g belongs to app 1 + g % apps; an app's k-th review (k = g / apps) gets author
        // 1 + (97k + 31·app) % authors, so an app's newest 20 have 20 different authors (the N+1 fault
        // then really issues 20 author queries); rating and date are hashes, ~200-byte bodies.
        const val REVIEWS = """insert into review (id, app_id, author_id, rating, body, created_at)
            select g, 1 + g % ?, 1 + ((g / ?) * 97 + (g % ?) * 31) % ?,
                   1 + (hashtext(g::text) & 2147483647) % 5,
                   rpad('review ' || g || ': ', 200, md5(g::text)),
                   timestamptz '2024-01-01 00:00:00+00'
                     + ((hashtext('c' || g) & 2147483647) % 31536000) * interval '1 second'
            from generate_series(?, ?) g on conflict (id) do nothing"""
    }
}
