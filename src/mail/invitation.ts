export interface InvitationInput {
  shopDomain: string;
  vendorName: string;
  email: string;
  password: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Values in `text` that are delivered but never logged (the invitation's password). */
  secrets?: string[];
}

/** The vendor portal invitation. It carries the plaintext password, as the spec requires (§4.4, §6). */
export function vendorInvitation(input: InvitationInput): MailMessage {
  return {
    to: input.email,
    subject: `Your vendor portal account for ${input.shopDomain}`,
    text: [
      'Hello,',
      '',
      `You have been invited to the vendor portal of ${input.shopDomain} for the vendor "${input.vendorName}".`,
      '',
      'Sign in with:',
      `  Shop:     ${input.shopDomain}`,
      `  Email:    ${input.email}`,
      `  Password: ${input.password}`,
      '',
      'API access: POST /v2/vendor/authenticate with {"shopDomain", "email", "password"} returns a vendor token.',
      '',
      'If you did not expect this email, you can ignore it.',
      '',
    ].join('\n'),
    secrets: [input.password],
  };
}
