import type { EntityOf, Store } from '@furniture/platform';
import { StoragePlaceRecord } from '../domain/warehouse-records';

/** The storage places (issue 45): per pickup location, one name once per location. */
export class StoragePlacesRepository {
  private readonly places: EntityOf<typeof StoragePlaceRecord>;

  constructor(store: Store) {
    this.places = store.entity({
      name: 'storage_places',
      record: StoragePlaceRecord,
      key: 'id',
      idFromKey: true,
      // two volunteers naming the same shelf at once, on any number of replicas: one place
      unique: [{ location_id: 1, name_key: 1 }],
      indexes: [{ location_id: 1, id: 1 }],
    });
  }

  get(id: number): Promise<StoragePlaceRecord | null> {
    return this.places.get(id);
  }

  getMany(ids: readonly number[]): Promise<StoragePlaceRecord[]> {
    return this.places.getMany(ids);
  }

  /** A location's places (or every location's), oldest first. */
  list(locationId?: number): Promise<StoragePlaceRecord[]> {
    const where = locationId === undefined ? {} : { location_id: locationId };
    return this.places.find(where, { sort: { location_id: 1, id: 1 } });
  }

  nameTaken(locationId: number, nameKey: string): Promise<boolean> {
    return this.places.exists({ location_id: locationId, name_key: nameKey });
  }

  nextId(): Promise<number> {
    return this.places.nextId();
  }

  /** Stores the place; false when its id or its name at the location is taken (the keys decide). */
  insertUnlessTaken(place: StoragePlaceRecord): Promise<boolean> {
    return this.places.insertUnlessTaken(place);
  }
}
