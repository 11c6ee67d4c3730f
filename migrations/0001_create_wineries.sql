-- The producers. Every wine refers to one of them (migration 0002).

-- migrate:up
CREATE TABLE wineries (
  id      INTEGER PRIMARY KEY,
  name    TEXT    NOT NULL,
  country TEXT    NOT NULL,
  region  TEXT,
  founded INTEGER
);

CREATE UNIQUE INDEX wineries_by_name ON wineries (name);

-- migrate:down
DROP TABLE wineries;
