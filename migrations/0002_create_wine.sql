-- Wines, each made by one winery, rated 1 to 5, with a picture of the label.

-- migrate:up
CREATE TABLE wine (
  id        INTEGER PRIMARY KEY,
  name      TEXT    NOT NULL,
  vintage   INTEGER,
  volume_cl INTEGER NOT NULL DEFAULT 75,
  rating    INTEGER CHECK (rating BETWEEN 1 AND 5),
  label     BLOB,
  winery_id INTEGER NOT NULL REFERENCES wineries (id)
);

CREATE INDEX wine_by_winery ON wine (winery_id);

-- migrate:down
DROP TABLE wine;
