import type { OptionGroup } from '../types';

/** The account sub-category: everything but "Other" is answered by the knowledge base alone. */
export const accountGroups: readonly OptionGroup[] = [
  {
    title: 'General',
    options: [
      {
        value: 'nameEmail',
        label: 'Name / E-mail',
        action: 'knowledgeBase',
        articles: ['change-name-or-email'],
        tags: ['account', 'account_name_email'],
      },
      {
        value: 'profilePicture',
        label: 'Profile Picture',
        action: 'knowledgeBase',
        articles: ['change-profile-picture'],
        tags: ['account', 'account_profile_picture'],
      },
      {
        value: 'deleteAccount',
        label: 'Delete Account',
        action: 'knowledgeBase',
        articles: ['delete-account'],
        tags: ['account', 'account_delete'],
      },
      { value: 'other', label: 'Other', action: 'ticket', articles: [], tags: ['account', 'account_other'] },
    ],
  },
  {
    title: 'Security',
    options: [
      {
        value: 'password',
        label: 'Password',
        action: 'knowledgeBase',
        articles: ['reset-password', 'cant-sign-in'],
        tags: ['account', 'account_password'],
      },
      {
        value: '2fa',
        label: '2FA',
        action: 'knowledgeBase',
        articles: ['two-factor-authentication'],
        tags: ['account', 'account_2fa'],
      },
    ],
  },
];
