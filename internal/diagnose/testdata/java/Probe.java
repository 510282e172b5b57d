import jakarta.servlet.http.*;
import java.io.*;
import java.sql.*;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.Context;

// A tiny service for checking which spans the OpenTelemetry Java agent sends:
// /owners runs a count(*) and a page query on one table (two statements, one span name);
// /reviews runs one query and then one per row (N+1); /price calls a dependency (args[2]) over HTTP.
public class Probe {
  static String url;
  public static void main(String[] a) throws Exception {
    url = a[1];
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS owners; DROP TABLE IF EXISTS author; DROP TABLE IF EXISTS review");
      s.execute("CREATE TABLE owners (id serial primary key, last_name text)");
      s.execute("INSERT INTO owners (last_name) SELECT 'n' || g FROM generate_series(1, 200000) g");
      s.execute("CREATE TABLE author (id int primary key, name text)");
      s.execute("INSERT INTO author SELECT g, 'a' || g FROM generate_series(1, 100) g");
      s.execute("CREATE TABLE review (id serial primary key, app int, author int, body text)");
      s.execute("INSERT INTO review (app, author, body) SELECT g % 10, 1 + g % 100, 'b' FROM generate_series(1, 200) g");
    }
    Tomcat t = new Tomcat();
    t.setPort(Integer.parseInt(a[0]));
    t.getConnector().setProperty("address", "127.0.0.1");
    Context ctx = t.addContext("", null);
    Tomcat.addServlet(ctx, "owners", new HttpServlet() {
      protected void doGet(HttpServletRequest q, HttpServletResponse r) throws IOException {
        try (Connection c = DriverManager.getConnection(url)) {
          int n;
          try (PreparedStatement p = c.prepareStatement("select count(*) from owners o where o.last_name like ?")) {
            p.setString(1, "n1%"); ResultSet rs = p.executeQuery(); rs.next(); n = rs.getInt(1);
          }
          try (Statement p = c.createStatement()) {
            ResultSet rs = p.executeQuery("select o.id, o.last_name from owners o where o.last_name like 'n1%' order by o.id offset 0 rows fetch first 10 rows only");
            while (rs.next()) {}
          }
          r.getWriter().print(n);
        } catch (SQLException e) { throw new IOException(e); }
      }
    });
    ctx.addServletMappingDecoded("/owners", "owners");
    Tomcat.addServlet(ctx, "reviews", new HttpServlet() {
      protected void doGet(HttpServletRequest q, HttpServletResponse r) throws IOException {
        try (Connection c = DriverManager.getConnection(url)) {
          java.util.List<Integer> authors = new java.util.ArrayList<>();
          try (PreparedStatement p = c.prepareStatement("select r.id, r.author from review r where r.app = ?")) {
            p.setInt(1, 3); ResultSet rs = p.executeQuery(); while (rs.next()) authors.add(rs.getInt(2));
          }
          for (int id : authors) {
            try (Statement p = c.createStatement()) { // literals inlined: the agent's sanitizer makes them ?
              ResultSet rs = p.executeQuery("select a.id, a.name from author a where a.id = " + id); rs.next();
            }
          }
          r.getWriter().print(authors.size());
        } catch (SQLException e) { throw new IOException(e); }
      }
    });
    ctx.addServletMappingDecoded("/reviews", "reviews");
    Tomcat.addServlet(ctx, "price", new HttpServlet() {
      protected void doGet(HttpServletRequest q, HttpServletResponse r) throws IOException {
        java.net.HttpURLConnection c = (java.net.HttpURLConnection) new java.net.URL(a[2] + "/price/3").openConnection();
        try (InputStream in = c.getInputStream()) { r.getWriter().print(new String(in.readAllBytes())); }
      }
    });
    ctx.addServletMappingDecoded("/price", "price");
    t.start();
    System.out.println("listening");
    t.getServer().await();
  }
}
