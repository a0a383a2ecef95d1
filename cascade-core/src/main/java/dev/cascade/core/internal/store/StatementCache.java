package dev.cascade.core.internal.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Prepared statements kept per connection: {@code connection.prepareStatement(sql)} compiles the
 * SQL once per connection instead of once per call (SQLite's prepare costs more than running a
 * small statement). The repositories keep their {@code try (PreparedStatement s = ...)} form:
 * closing a cached statement resets it for its next use instead of finalizing it. A statement still
 * in use when its SQL is prepared again (a nested use) is a fresh one, closed for real.
 */
final class StatementCache implements InvocationHandler {

  /** SQL texts kept per connection; past it (SQL built per call, as IN lists are) none is kept. */
  private static final int MAX_STATEMENTS = 256;

  private static final Method PREPARE;

  static {
    try {
      PREPARE = Connection.class.getMethod("prepareStatement", String.class);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Connection real;
  private final Map<String, Cached> cached = new HashMap<>();

  private StatementCache(Connection real) {
    this.real = real;
  }

  /** {@code real}, with its prepared statements kept; closing it closes them too. */
  static Connection wrap(Connection real) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            new StatementCache(real));
  }

  @Override
  public synchronized Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.equals(PREPARE)) {
      return prepare((String) args[0]);
    }
    if (method.getName().equals("close") && method.getParameterCount() == 0) {
      closeAll();
    }
    return call(real, method, args);
  }

  private PreparedStatement prepare(String sql) throws SQLException {
    Cached statement = cached.get(sql);
    if (statement == null) {
      if (cached.size() >= MAX_STATEMENTS) {
        return real.prepareStatement(sql);
      }
      statement = new Cached(real.prepareStatement(sql));
      cached.put(sql, statement);
    }
    if (statement.inUse) {
      return real.prepareStatement(sql); // nested: the cached one is busy
    }
    statement.inUse = true;
    return statement.view;
  }

  private void closeAll() {
    List<Cached> all = new ArrayList<>(cached.values());
    cached.clear();
    for (Cached statement : all) {
      try {
        statement.real.close();
      } catch (SQLException e) {
        // the connection is closing anyway
      }
    }
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** A kept statement and the view of it that callers get, whose close only resets it. */
  private final class Cached implements InvocationHandler {
    final PreparedStatement real;
    final PreparedStatement view;
    boolean inUse;
    private ResultSet open;

    Cached(PreparedStatement real) {
      this.real = real;
      this.view =
          (PreparedStatement)
              Proxy.newProxyInstance(
                  PreparedStatement.class.getClassLoader(),
                  new Class<?>[] {PreparedStatement.class},
                  this);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      if (name.equals("close") && method.getParameterCount() == 0) {
        release();
        return null;
      }
      if (name.equals("isClosed") && method.getParameterCount() == 0) {
        return !inUse;
      }
      Object result = call(real, method, args);
      if (result instanceof ResultSet rows) {
        open = rows; // closed at release at the latest: an open one would hold a read snapshot
      }
      return result;
    }

    /**
     * Ends this use: the result set is closed (SQLite resets the statement), parameters cleared.
     */
    private void release() throws SQLException {
      synchronized (StatementCache.this) {
        if (!inUse) {
          return;
        }
        inUse = false;
        try {
          if (open != null) {
            open.close();
            open = null;
          }
          real.clearParameters();
        } catch (SQLException e) {
          forget();
          throw e;
        }
      }
    }

    /** Drops a statement that could not be reset; the next prepare compiles a new one. */
    private void forget() {
      cached.remove(sqlOf(), this);
      try {
        real.close();
      } catch (SQLException e) {
        // it is dropped either way
      }
    }

    private String sqlOf() {
      for (Map.Entry<String, Cached> entry : cached.entrySet()) {
        if (entry.getValue() == this) {
          return entry.getKey();
        }
      }
      return "";
    }
  }
}
