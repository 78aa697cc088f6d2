/** Project ids, as the projects table's CHECK has them. */
export const PROJECT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
