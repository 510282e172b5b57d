package dev.loadlens.truth

import jakarta.servlet.FilterChain
import jakarta.servlet.http.HttpServletRequest
import jakarta.servlet.http.HttpServletResponse
import org.springframework.web.filter.OncePerRequestFilter
import org.springframework.web.util.ContentCachingResponseWrapper
import java.util.concurrent.Semaphore
import java.util.concurrent.locks.LockSupport

/**
 * The bulkhead and slowdown faults for /apps/: at most [bulkhead] requests in flight (the rest get
 * an immediate 503), and each answer held back until [slowdown] × its own service time has passed.
 */
class FaultFilter(private val bulkhead: Int, private val slowdown: Double) : OncePerRequestFilter() {
    private val permits = if (bulkhead > 0) Semaphore(bulkhead) else null

    override fun doFilterInternal(request: HttpServletRequest, response: HttpServletResponse, chain: FilterChain) {
        val permits = permits
        if (permits != null && !permits.tryAcquire()) {
            response.status = HttpServletResponse.SC_SERVICE_UNAVAILABLE
            response.contentType = "text/plain"
            response.writer.write("bulkhead full: $bulkhead requests in flight\n")
            return
        }
        try {
            if (slowdown == 1.0) chain.doFilter(request, response) else slowed(request, response, chain)
        } finally {
            permits?.release()
        }
    }

    private fun slowed(request: HttpServletRequest, response: HttpServletResponse, chain: FilterChain) {
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
