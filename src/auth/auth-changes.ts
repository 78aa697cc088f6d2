/** The channel on which every instance hears that tokens or members changed (its TokenCache empties). */
export const AUTH_CHANGED_CHANNEL = 'auth_changed';
