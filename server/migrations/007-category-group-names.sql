-- Group names are unique, so concurrent registrations creating the 'Places' group cannot duplicate it.
CREATE UNIQUE INDEX category_groups_name ON category_groups (name);
