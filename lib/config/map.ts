import { env } from "./env";

export interface MapConfig {
  tileUrl: string;
  attribution: string;
}

/** Read on the server at request time and passed to the map components, so operators change tiles without a rebuild. */
export const mapConfig = (): MapConfig => ({
  tileUrl: env().NEXT_PUBLIC_MAP_TILE_URL,
  attribution: env().NEXT_PUBLIC_MAP_ATTRIBUTION,
});
