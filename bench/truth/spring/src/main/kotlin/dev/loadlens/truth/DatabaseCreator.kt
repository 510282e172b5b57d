package dev.loadlens.truth

import org.slf4j.LoggerFactory
import org.springframework.beans.factory.config.BeanFactoryPostProcessor
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory
import org.springframework.context.EnvironmentAware
import org.springframework.core.env.Environment
import org.springframework.stereotype.Component
import java.sql.DriverManager
import java.sql.SQLException

/**
 * Creates the datasource URL's database when the server lacks it, before the pool first connects,
 * so that a fresh `initdb` is all the harness needs to provide.
 */
@Component
class DatabaseCreator : BeanFactoryPostProcessor, EnvironmentAware {
    private lateinit var env: Environment

    override fun setEnvironment(environment: Environment) {
        env = environment
    }

    override fun postProcessBeanFactory(beanFactory: ConfigurableListableBeanFactory) {
        val url = env.getProperty("spring.datasource.url") ?: return
        val m = URL.matchEntire(url) ?: return
        val (prefix, db, query) = m.destructured
        if (db == "postgres") return
        val user = env.getProperty("spring.datasource.username")
        val password = env.getProperty("spring.datasource.password")
        DriverManager.getConnection("${prefix}postgres$query", user, password).use { c ->
            val exists = c.prepareStatement("select 1 from pg_database where datname = ?").use { ps ->
                ps.setString(1, db)
                ps.executeQuery().use { it.next() }
            }
            if (exists) return
            try {
                c.createStatement().use { it.execute("create database \"${db.replace("\"", "\"\"")}\"") }
                LoggerFactory.getLogger(DatabaseCreator::class.java).info("created database {}", db)
            } catch (e: SQLException) {
                // Another instance created it meanwhile: duplicate_database is fine.
                if (e.sqlState != "42P04") throw e
            }
        }
    }

    private companion object {
        val URL = Regex("""(jdbc:postgresql://[^/]+/)([^?]+)(\?.*)?""")
    }
}
