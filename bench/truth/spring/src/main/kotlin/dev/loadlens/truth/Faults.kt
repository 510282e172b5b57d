package dev.loadlens.truth

import jakarta.servlet.FilterChain
import jakarta.servlet.http.HttpServletRequest
import jakarta.servlet.http.HttpServletResponse
import org.springframework.web.filter.OncePerRequestFilter
import org.springframework.web.servlet.HandlerInterceptor
import org.springframework.web.util.ContentCachingResponseWrapper
import java.util.concurrent.Semaphore
import java.util.concurrent.locks.LockSupport

/** The slowdown fault for /apps/: each answer is held back until [slowdown] × its own service time has passed. */
class SlowdownFilter(private val slowdown: Double) : OncePerRequestFilter() {
    override fun doFilterInternal(request: HttpServletRequest, response: HttpServletResponse, chain: FilterChain) {
        // Buffered, so that nothing of the answer leaves before the delay (MVC flushes its body).
        val buffered = ContentCachingResponseWrapper(response)
        val start = System.nanoTime()
        chain.doFilter(request, buffered)
        val deadline = System.nanoTime() + ((System.nanoTime() - start) * (slowdown - 1)).toLong()
        // parkNanos, not Thread.sleep: Java 17's sleep rounds to whole milliseconds.
        while (true) {
            val left = deadline - System.nanoTime()
            if (left <= 0) break
            LockSupport.parkNanos(left)
        }
        buffered.copyBodyToResponse()
    }
}

/**
 * The bulkhead fault: at most [limit] requests in a handler at once, the rest answered 503 at once.
 * An interceptor rather than a filter, so that the 503s keep their endpoint's `uri` tag in
 * http_server_requests_seconds (a filter's would read uri="UNKNOWN").
 */
class Bulkhead(private val limit: Int) : HandlerInterceptor {
    private val permits = Semaphore(limit)

    override fun preHandle(request: HttpServletRequest, response: HttpServletResponse, handler: Any): Boolean {
        if (permits.tryAcquire()) {
            request.setAttribute(HELD, true)
            return true
        }
        response.status = HttpServletResponse.SC_SERVICE_UNAVAILABLE
        response.contentType = "text/plain"
        response.writer.write("bulkhead full: $limit requests in flight\n")
        return false
    }

    override fun afterCompletion(request: HttpServletRequest, response: HttpServletResponse, handler: Any, ex: Exception?) {
        if (request.getAttribute(HELD) == true) permits.release()
    }

    private companion object {
        val HELD = Bulkhead::class.java.name + ".held"
    }
}
