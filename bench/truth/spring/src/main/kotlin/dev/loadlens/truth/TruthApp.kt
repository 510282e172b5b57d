package dev.loadlens.truth

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.runApplication

@SpringBootApplication
class TruthApp

fun main(args: Array<String>) {
    runApplication<TruthApp>(*args)
}
