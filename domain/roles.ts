// Guild role bits (the Guilds library of the contracts): one uint8 holds all of a member's roles.
export const ROLE_CURATOR = 1;
export const ROLE_OFFICER = 2;
export const ROLE_ADMIN = 4;

export const roleFlags = (roles: number) => ({
  roles,
  isCurator: (roles & ROLE_CURATOR) !== 0,
  isOfficer: (roles & ROLE_OFFICER) !== 0,
  isAdmin: (roles & ROLE_ADMIN) !== 0,
});
