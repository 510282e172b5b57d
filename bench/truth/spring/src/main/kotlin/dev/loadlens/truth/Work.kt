package dev.loadlens.truth

import java.security.MessageDigest
import java.util.HexFormat

/** The endpoints that cost the JVM itself: CPU (render) and allocation (export). No database. */
object Work {
    /** Builds the app's page and hashes it [rounds] times, each round over the page and the last hash. */
    fun render(appId: Long, rounds: Int): RenderResult {
        val page = buildString {
            append("<html><head><title>App ").append(appId).append("</title></head><body>\n")
            for (line in 1..PAGE_LINES) {
                append("<p class=\"review\">App ").append(appId).append(", line ").append(line)
                append(": a review that says what it liked and what it did not.</p>\n")
            }
            append("</body></html>\n")
        }.toByteArray()
        val sha = MessageDigest.getInstance("SHA-256")
        var hash = ByteArray(0)
        repeat(rounds) {
            sha.update(page)
            hash = sha.digest(hash)
        }
        return RenderResult(appId, page.size, HexFormat.of().formatHex(hash))
    }

    /** One row of the export's object graph. */
    class Row(val id: Int, val appId: Long, val author: String, val body: String, val rating: Int)

    /** Builds [rows] review rows (about 650 bytes allocated each, all live at once) and digests them. */
    fun export(appId: Long, rows: Int): ExportDigest {
        val graph = ArrayList<Row>(rows)
        for (i in 0 until rows) {
            val body = "review $i of app $appId: ".padEnd(BODY_CHARS, ('a' + i % 26))
            graph.add(Row(i, appId, "author ${(i * 31 + appId) % 10_000}", body, 1 + i % 5))
        }
        var digest = 17L
        var bytes = 0L
        for (row in graph) {
            digest = digest * 31 + row.body.hashCode() + row.author.hashCode() + row.rating
            bytes += row.body.length + row.author.length
        }
        return ExportDigest(appId, graph.size, bytes, digest)
    }

    private const val PAGE_LINES = 50
    private const val BODY_CHARS = 200
}
