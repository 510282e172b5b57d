package dev.loadlens.truth

import jakarta.persistence.Column
import jakarta.persistence.Entity
import jakarta.persistence.FetchType
import jakarta.persistence.Id
import jakarta.persistence.JoinColumn
import jakarta.persistence.ManyToOne
import jakarta.persistence.Table
import java.time.OffsetDateTime

// The entities are open with defaults by hand (no kotlin-jpa plugin, see pom.xml): Hibernate needs
// a no-arg constructor, and an open class with open getters to hand out a lazy proxy.

/** A reviewer. */
@Entity
@Table(name = "author")
open class Author(@Id open val id: Long = 0, open val name: String = "")

/** An app of the store. */
@Entity
@Table(name = "app")
open class App(
    @Id open val id: Long = 0,
    open val name: String = "",
    open val category: String = "",
    open val priceCents: Int = 0,
    open val createdAt: OffsetDateTime = OffsetDateTime.MIN,
)

/** A review of an app; its author is lazy, so reading it per review is the N+1 fault. */
@Entity
@Table(name = "review")
open class Review(
    @Id open val id: Long = 0,
    @Column(name = "app_id") open val appId: Long = 0,
    @ManyToOne(fetch = FetchType.LAZY) @JoinColumn(name = "author_id") open val author: Author? = null,
    open val rating: Int = 0,
    open val body: String = "",
    open val createdAt: OffsetDateTime = OffsetDateTime.MIN,
)
