-- A handful of wineries for the example database. An upsert, so that `cellar seed FILE --force` can
-- run it again after an edit.
INSERT INTO wineries (id, name, country, region, founded) VALUES
  (1, 'Ridge Vineyards', 'United States', 'Santa Cruz Mountains', 1962),
  (2, 'Château Musar', 'Lebanon', 'Bekaa Valley', 1930),
  (3, 'Felton Road', 'New Zealand', 'Central Otago', 1991),
  (4, 'Dr. Loosen', 'Germany', 'Mosel', 1805),
  (5, 'Bodega Catena Zapata', 'Argentina', 'Mendoza', 1902)
ON CONFLICT (id) DO UPDATE SET
  name = excluded.name, country = excluded.country, region = excluded.region, founded = excluded.founded;
