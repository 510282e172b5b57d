package dev.loadlens.truth

import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.client.RestClient
import org.springframework.web.client.RestClientException
import org.springframework.web.server.ResponseStatusException
import java.util.concurrent.atomic.AtomicLong

/** The catalogue's endpoints under /apps. */
@RestController
@RequestMapping("/apps")
class AppController(
    private val service: AppService,
    private val props: TruthProperties,
    private val pricing: RestClient,
) {
    private val nonces = AtomicLong()

    @GetMapping("/{id}")
    fun summary(@PathVariable id: Long): AppSummary =
        service.summary(id, if (props.fault.cacheMiss) nonces.incrementAndGet() else null)

    @GetMapping("/{id}/reviews")
    fun reviews(@PathVariable id: Long): List<ReviewView> = service.newestReviews(id)

    @GetMapping("/top")
    fun top(@RequestParam(defaultValue = "GAME") category: String): List<TopApp> {
        if (category !in CATEGORIES) {
            throw ResponseStatusException(HttpStatus.BAD_REQUEST, "category must be one of $CATEGORIES")
        }
        return service.top(category)
    }

    /** Passes the pricing service's answer on; its failure is a 502. */
    @GetMapping("/{id}/price")
    fun price(@PathVariable id: Long): ResponseEntity<String> = try {
        val answer = pricing.get().uri("/prices/{id}", id).retrieve().toEntity(String::class.java)
        ResponseEntity.ok()
            .contentType(answer.headers.contentType ?: MediaType.TEXT_PLAIN)
            .body(answer.body ?: "")
    } catch (e: RestClientException) {
        throw ResponseStatusException(HttpStatus.BAD_GATEWAY, "pricing service: ${e.message}", e)
    }

    @GetMapping("/{id}/render")
    fun render(@PathVariable id: Long): RenderResult = Work.render(id, props.renderRounds)

    @GetMapping("/{id}/export")
    fun export(@PathVariable id: Long): ExportDigest = Work.export(id, props.exportRows)

    companion object {
        /** The seed's categories. */
        val CATEGORIES = listOf("GAME", "EDU", "SOCIAL", "MUSIC", "TOOLS")
    }
}
